// The hosts inventory is read strictly: every mistake names the file, the key and the fix.
#include <gtest/gtest.h>

#include "runner/hosts/fio_job.hpp"
#include "runner/hosts/host_gate.hpp"
#include "runner/hosts/inventory.hpp"

namespace diskvet::runner {
namespace {

Result<Inventory> parse(std::string_view text) { return parse_inventory(text, "hosts.json"); }

std::string error_of(std::string_view text) {
  auto r = parse(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? std::string() : r.error().message();
}

TEST(HostsInventory, ReadsHostsDevicesAndConsent) {
  auto inv = parse(R"({"ssh_config": "lab.ssh", "hosts": [
      {"name": "srv1", "ssh": "root@srv1", "port": 2222, "devices": [{"id": "S4EWNX0R123456/1", "destroy_data": true}]},
      {"name": "srv2", "ssh": "srv2", "diskvet": false, "fio": "/opt/fio/bin/fio", "devices": [{"id": "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4"}]}]})");
  ASSERT_TRUE(inv.ok()) << inv.error().message();
  ASSERT_EQ(inv->hosts.size(), 2u);
  EXPECT_EQ(inv->ssh_config, "lab.ssh");
  EXPECT_EQ(inv->hosts[0].ssh_port, 2222u);
  EXPECT_EQ(inv->hosts[0].diskvet, "diskvet");
  EXPECT_TRUE(inv->hosts[0].writes_allowed());
  EXPECT_TRUE(inv->hosts[0].devices[0].destroy_data);
  EXPECT_FALSE(inv->hosts[1].has_diskvet());
  EXPECT_FALSE(inv->hosts[1].writes_allowed());
  EXPECT_EQ(inv->hosts[1].fio, "/opt/fio/bin/fio");
  EXPECT_FALSE(inv->hosts[1].devices[0].destroy_data);
}

TEST(HostsInventory, RefusesUnknownKeysAndNamesThem) {
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a", "devcies": []}]})").find("hosts[0].devcies"), std::string::npos);
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a", "devices": [{"id": "x", "destroy": true}]}]})").find("hosts[0].devices[0].destroy"), std::string::npos);
  EXPECT_NE(error_of(R"({"host": []})").find("hosts.json"), std::string::npos);
}

TEST(HostsInventory, RefusesEmptyAndDuplicateHosts) {
  EXPECT_NE(error_of(R"({"hosts": []})").find("empty"), std::string::npos);
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a"}, {"name": "a", "ssh": "b"}]})").find("names two hosts"), std::string::npos);
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a", "devices": [{"id": "x"}, {"id": "x"}]}]})").find("listed twice"), std::string::npos);
}

TEST(HostsInventory, RefusesOneHostListedTwiceUnderTwoNamesWithTheSameDevice) {
  std::string e = error_of(R"({"hosts": [{"name": "a", "ssh": "root@srv1", "devices": [{"id": "S1"}]},
                                          {"name": "b", "ssh": "root@srv1", "devices": [{"id": "S1"}]}]})");
  EXPECT_NE(e.find("already listed for host \"a\""), std::string::npos) << e;
  EXPECT_TRUE(parse(R"({"hosts": [{"name": "a", "ssh": "root@srv1", "devices": [{"id": "S1"}]},
                                   {"name": "b", "ssh": "root@srv1", "port": 2222, "devices": [{"id": "S1"}]}]})")
                  .ok())
      << "another port is another sshd, perhaps another machine: the gates' answers decide";
}

// What the gates answer decides, whatever names the inventory used: one device reached twice.
GateDevice answered(const std::string& id, const std::string& path, const std::string& serial, const std::string& dev_id,
                    const std::string& machine) {
  GateDevice g;
  g.id = id;
  g.path = path;
  g.model = serial.empty() ? "" : "M";
  g.serial = serial;
  g.dev_id = dev_id;
  g.machine_id = machine;
  return g;
}

TEST(HostsInventory, TheGatesAnswersTellOneDeviceReachedTwice) {
  GateDevice a = answered("S1", "/dev/sdb", "S1", "8:16", "m1");
  GateDevice b = a;
  b.id = "/dev/disk/by-id/x";
  EXPECT_NE(same_device(a, b), "");
  b.serial = "S2";
  EXPECT_NE(same_device(a, b).find("device 8:16"), std::string::npos) << "same machine, same device number";
  b.machine_id = "m2";
  EXPECT_EQ(same_device(a, b), "") << "another machine's 8:16 is another disk";
  b.wwn = a.wwn = "naa.5000c500a1b2c3d4";
  EXPECT_NE(same_device(a, b).find("WWN"), std::string::npos) << "one LUN seen from two hosts";
  GateDevice c = answered("/dev/loop3", "/dev/loop3", "", "7:3", "m1");
  GateDevice d = answered("/dev/loop4", "/dev/loop4", "", "7:4", "m1");
  EXPECT_EQ(same_device(c, d), "") << "two loop devices of one machine (the SSH lab's hosts) are two devices";
}

TEST(HostsInventory, RefusesWhatCouldPassForAnOptionOrAShellWord) {
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "-oProxyCommand=sh"}]})").find("ssh"), std::string::npos);
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a", "devices": [{"id": "x; rm -rf /"}]}]})").find("id"), std::string::npos);
  EXPECT_NE(error_of(R"j({"hosts": [{"name": "a", "ssh": "a", "diskvet": "$(reboot)"}]})j").find("diskvet"), std::string::npos);
  EXPECT_NE(error_of(R"({"hosts": [{"name": "../x", "ssh": "a"}]})").find("plain name"), std::string::npos);
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a", "port": 0}]})").find("port"), std::string::npos);
}

TEST(HostsInventory, AHostWithoutDiskvetNamesDevicesByDevPath) {
  EXPECT_NE(error_of(R"({"hosts": [{"name": "a", "ssh": "a", "diskvet": false, "devices": [{"id": "S4EWNX0R123456"}]}]})").find("/dev/disk/by-id"), std::string::npos);
}

TEST(HostsInventory, RefusesConsentOnAHostWithoutDiskvet) {
  const std::string e = error_of(R"({"hosts": [{"name": "a", "ssh": "a", "diskvet": false, "devices": [{"id": "/dev/sdb", "destroy_data": true}]}]})");
  EXPECT_NE(e.find("without diskvet"), std::string::npos) << e;
}

FioJobSpec spec_for(Pattern rw) {
  FioJobSpec s;
  s.workload.rw = rw;
  s.workload.bs_bytes = 4096;
  s.workload.iodepth = 32;
  s.workload.numjobs = 4;
  s.workload.runtime_s = 60;
  s.workload.ramp_s = 5;
  s.workload.engine = BackendKind::io_uring;
  s.filenames = {"/dev/nvme0n1", "/dev/nvme1n1"};
  s.startdelay_s = 2.5;
  s.percentiles = {50, 99, 99.99};
  s.iops_log = "t1";
  return s;
}

TEST(HostsJobFile, SaysTheWorkloadInFiosNamesWithOneJobPerDevice) {
  auto f = fio_job_file(spec_for(Pattern::randread));
  ASSERT_TRUE(f.ok()) << f.error().message();
  for (const char* line : {"ioengine=io_uring\n", "direct=1\n", "rw=randread\n", "bs=4096\n", "iodepth=32\n", "numjobs=4\n",
                           "time_based=1\n", "runtime=60s\n", "ramp_time=5s\n", "startdelay=2500ms\n", "lat_percentiles=1\n",
                           "percentile_list=50:99:99.99\n", "group_reporting=1\n", "write_iops_log=t1\n", "log_avg_msec=1000\n",
                           "log_unix_epoch=1\n", "[dev0]\nfilename=/dev/nvme0n1\n", "[dev1]\nfilename=/dev/nvme1n1\n"})
    EXPECT_NE(f->find(line), std::string::npos) << line << " missing from\n" << *f;
  EXPECT_EQ(f->find("rwmixread"), std::string::npos);
}

TEST(HostsJobFile, MixedWorkloadsCarryTheMixAndUniqueWriteData) {
  auto s = spec_for(Pattern::randrw);
  s.workload.rwmixread_pct = 70;
  auto f = fio_job_file(s);
  ASSERT_TRUE(f.ok());
  EXPECT_NE(f->find("rwmixread=70\n"), std::string::npos);
  EXPECT_NE(f->find("refill_buffers=1\n"), std::string::npos);
}

TEST(HostsJobFile, RefusesAJobWithoutADeviceUnlessTheEngineIsNull) {
  auto s = spec_for(Pattern::randread);
  s.filenames.clear();
  EXPECT_FALSE(fio_job_file(s).ok());
  s.workload.engine = BackendKind::null;
  auto f = fio_job_file(s);
  ASSERT_TRUE(f.ok());
  EXPECT_NE(f->find("ioengine=null\n"), std::string::npos);
  EXPECT_NE(f->find("size=1g\n"), std::string::npos);
  EXPECT_EQ(f->find("direct=1"), std::string::npos);
}

TEST(HostsJobFile, RefusesVerifyingWorkloads) {
  auto s = spec_for(Pattern::randwrite);
  s.workload.verify = true;
  EXPECT_FALSE(fio_job_file(s).ok());
}

}  // namespace
}  // namespace diskvet::runner
