// The gate's stack rule (DESIGN.md Safety, rule 2) as a pure decision over facts: a fixed fake host
// (disk sdb with partitions sdb1 and sdb2, loop0..loop7) and fuzzed facts, one per line:
//   loop N MAJ:MIN OFFSET     loopN backed by that device      file N DEV INO   loopN backed by a file
//   unknown N                 loopN did not answer             mount MAJ:MIN    mounted at /m
//   writer MAJ:MIN            a program writes that device     fwriter DEV INO  a program writes a file
// Properties: the decision terminates on any graph (cycles, self-backing, long chains), every
// reason has words, the same facts give the same decision, and anything mounted or written in the
// target's own stack protects it, never overridably.
#include <cstdint>
#include <set>
#include <sstream>

#include "devices/host_state.hpp"
#include "devices/protection.hpp"
#include "devices/stack_facts.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tests/unit/support/fake_sysfs.hpp"

namespace {

using namespace diskvet::devices;

struct Host {
  diskvet::test::FakeSysfs fake;
  Host() {
    auto disk = fake.add_disk("pci0000:00/host1/target1:0:0/1:0:0:0", "sdb", "8:16", 1 << 20);
    fake.add_partition(disk, "sdb1", "8:17");
    fake.add_partition(disk, "sdb2", "8:18");
    link("8:16", disk);
    link("8:17", disk / "sdb1");
    link("8:18", disk / "sdb2");
    for (int n = 0; n < 8; ++n) link("7:" + std::to_string(n), fake.add_disk("virtual", "loop" + std::to_string(n), "7:" + std::to_string(n), 1 << 16));
    fake.write_proc("self/mountinfo", "27 1 254:0 / / rw - ext4 /dev/vda rw\n");
    fake.write_proc("swaps", "Filename\tType\tSize\tUsed\tPriority\n");
    fake.write_proc("cmdline", "quiet\n");
  }
  void link(const std::string& id, const std::filesystem::path& dir) {
    std::filesystem::create_directories(fake.sysfs() / "dev" / "block");
    std::error_code ec;
    std::filesystem::create_directory_symlink(dir, fake.sysfs() / "dev" / "block" / id, ec);
  }
  HostPaths paths() const { return {fake.sysfs(), fake.dev(), fake.proc()}; }
};

std::string id_word(std::istringstream& in) {
  std::string w;
  in >> w;
  return w.size() > 12 ? w.substr(0, 12) : w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Host host;
  StackFacts facts;
  facts.mounts = parse_mountinfo("27 1 254:0 / / rw - ext4 /dev/vda rw\n");
  std::istringstream lines{std::string(diskvet::fuzz::as_text(data, size > 4096 ? 4096 : size))};
  std::string line;
  std::set<std::string> mounted, written;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    std::string verb;
    in >> verb;
    unsigned n = 0;
    if (verb == "loop" || verb == "file" || verb == "unknown") {
      in >> n;
      LoopBacking l;
      l.name = "loop" + std::to_string(n % 8);
      l.dev_id = "7:" + std::to_string(n % 8);
      l.known = verb != "unknown";
      l.why_unknown = "did not answer";
      l.file_name = "/images/x.img";
      if (verb == "loop") {
        l.backing_dev_id = id_word(in);
        in >> l.offset_bytes;
      } else if (verb == "file") {
        unsigned long dev = 0, ino = 0;
        in >> dev >> ino;
        l.file = {static_cast<dev_t>(dev), static_cast<ino_t>(ino)};
      }
      facts.loops.push_back(l);
    } else if (verb == "mount") {
      std::string id = id_word(in);
      mounted.insert(id);
      facts.mounts.push_back({id, "/m", "ext4", "/dev/x", "rw", "rw"});
    } else if (verb == "writer") {
      std::string id = id_word(in);
      written.insert(id);
      facts.writers.push_back({"1", "w", "open for writing", id, {}, "/x"});
    } else if (verb == "fwriter") {
      unsigned long dev = 0, ino = 0;
      in >> dev >> ino;
      facts.writers.push_back({"1", "w", "open for writing", {}, {static_cast<dev_t>(dev), static_cast<ino_t>(ino)}, "/x"});
    }
  }
  for (const char* name : {"sdb", "loop0", "loop3"}) {
    Device d;
    d.name = name;
    d.path = (host.fake.dev() / name).string();
    d.dev_id = name[0] == 's' ? "8:16" : (name[4] == '0' ? "7:0" : "7:3");
    if (name[0] == 's') d.partitions = {"sdb1", "sdb2"};
    d.kind = name[0] == 's' ? DeviceKind::scsi : DeviceKind::loop;
    ProtectionProbes probes{.signatures = false, .facts = &facts};
    Protection p = assess_protection(d, host.paths(), probes);
    for (const auto& r : p.reasons) FUZZ_CHECK(!r.text.empty());
    Protection again = assess_protection(d, host.paths(), probes);
    FUZZ_CHECK(again.texts() == p.texts());
    std::set<std::string> own{d.dev_id};
    for (const auto& part : d.partitions) own.insert(part == "sdb1" ? "8:17" : "8:18");
    bool hit = false;
    for (const auto& id : own) hit = hit || mounted.contains(id) || written.contains(id);
    if (hit) FUZZ_CHECK(p.is_protected() && !p.only_overridable());
  }
  return 0;
}
