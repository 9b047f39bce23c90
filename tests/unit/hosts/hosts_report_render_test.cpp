// A multi-host report renders back as text and HTML: a row per host and the merged row, every host's
// state and why, and nothing from the report reaches the page unescaped.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "runner/hosts/hosts_report_render.hpp"
#include "runner/hosts/hosts_verdicts.hpp"

namespace diskvet::runner {
namespace {

namespace json = boost::json;

json::object hosts_doc() {
  std::ifstream in(std::string(DISKVET_UNIT_DATA) + "/hosts/client_3hosts.txt", std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  auto out = parse_fio_client_output(s.str());
  EXPECT_TRUE(out.ok());
  std::vector<const FioHostResult*> hosts;
  json::object per_host;
  for (const auto& h : out->hosts) {
    hosts.push_back(&h);
    per_host[h.client.substr(0, 2)] = h.raw;
  }
  json::object w{{"rw", "randread"}, {"bs_bytes", 4096}, {"iodepth", 1}, {"numjobs", 1}, {"hosts", per_host},
                 {"merged", merged_json(merge_hosts(hosts, {}, {}, {50, 99}, 1000))}};
  json::array host_list;
  host_list.push_back(json::object{{"name", "h1"}, {"state", "ok"}, {"fio_version", "fio-3.33"}, {"devices", json::array{}}});
  host_list.push_back(json::object{{"name", "h2"}, {"state", "lost"}, {"reason", "<script>alert(1)</script>"}, {"when", "T"}});
  return json::object{{"kind", kHostsReportKind}, {"suite", "quick"}, {"status", "INCOMPLETE"}, {"verdict", "ERROR"}, {"exit_code", 3},
                      {"hosts", host_list}, {"tests", json::array{json::object{{"id", "latency-qd1"}, {"workloads", json::array{w}}}}}};
}

TEST(HostsReport, EveryRefusedDeviceOfAHostSaysWhy) {
  // A report whose host reason names only the first refusal (as diskvet wrote them before): the
  // second device's own refusal is shown too, and each only once.
  json::array devs;
  devs.push_back(json::object{{"id", "/dev/sdb"}, {"path", "/dev/sdb"}, {"refusal", "holds an ext4 file system"}});
  devs.push_back(json::object{{"id", "/dev/sdc"}, {"path", "/dev/sdc"}, {"refusal", "is mounted at /srv"}});
  json::array hosts;
  hosts.push_back(json::object{{"name", "h1"}, {"state", "refused"}, {"reason", "/dev/sdb: holds an ext4 file system"}, {"when", "T"}, {"devices", devs}});
  const json::object doc{{"kind", kHostsReportKind}, {"suite", "quick"}, {"status", "REFUSED"}, {"verdict", "ERROR"}, {"exit_code", 2}, {"hosts", hosts}};
  const std::string t = render_hosts_text(decode_report(doc));
  EXPECT_NE(t.find("/dev/sdc refused: is mounted at /srv"), std::string::npos) << t;
  const size_t first = t.find("holds an ext4 file system");
  ASSERT_NE(first, std::string::npos) << t;
  EXPECT_EQ(t.find("holds an ext4 file system", first + 1), std::string::npos) << "said once: " << t;
  const std::string h = render_hosts_html(decode_report(doc), true);
  EXPECT_NE(h.find("/dev/sdc (REFUSED: is mounted at /srv)"), std::string::npos) << h;
}

TEST(HostsReport, APhaseTheHostsCouldNotRunAndWhyTheTestsAreNotJudgedAreOnBothRenderings) {
  json::object doc = hosts_doc();
  doc["not_judged"] = "preconditioning required and incomplete: h2 wrote 1 of 2 bytes";
  doc["phases_not_run"] = json::array{json::object{{"phase", "purge"}, {"why", "fio's client/server cannot purge a drive"}},
                                      json::object{{"phase", "address_probe"}, {"why", "runs on <diskvet>'s engine"}}};
  const ReportView v = decode_report(doc);
  for (const ReportProblem& p : v.problems) EXPECT_EQ(p.path.find("phases_not_run"), std::string::npos) << describe(p);
  const std::string t = render_hosts_text(v);
  EXPECT_NE(t.find("not run: purge: fio's client/server cannot purge a drive\n"), std::string::npos) << t;
  EXPECT_NE(t.find("not run: address_probe: runs on <diskvet>'s engine\n"), std::string::npos) << t;
  const std::string h = render_hosts_html(v, true);
  EXPECT_NE(h.find("<p>not run: address_probe: runs on &lt;diskvet&gt;"), std::string::npos) << h;
  EXPECT_NE(h.find("<p>not judged: preconditioning required and incomplete: h2 wrote 1 of 2 bytes</p>"), std::string::npos) << h;
}

TEST(HostsReport, TextHasARowPerHostAndTheMergedRow) {
  const json::object doc = hosts_doc();
  ASSERT_TRUE(is_multi_host_report(doc));
  const std::string t = render_hosts_text(decode_report(doc));
  for (const char* s : {"INCOMPLETE", "h1", "h2", "h3", "merged", "lost", "latency-qd1", "randread 4KiB QD1 x1"})
    EXPECT_NE(t.find(s), std::string::npos) << s << " missing from\n" << t;
}

TEST(HostsReport, HtmlHasAPerHostTableAndEscapesWhatTheReportSays) {
  const std::string h = render_hosts_html(decode_report(hosts_doc()), false);
  EXPECT_EQ(h.find("<script>"), std::string::npos);
  EXPECT_NE(h.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(h.find("class=\"merged\""), std::string::npos);
  EXPECT_NE(h.find("<td>h3</td>"), std::string::npos);
  EXPECT_NE(h.find("WARNING"), std::string::npos);
}

TEST(HostsReport, AnOrdinaryReportIsNotAHostsReport) {
  EXPECT_FALSE(is_multi_host_report(json::object{{"schema", "diskvet-report/1"}, {"devices", json::array{}}}));
}

}  // namespace
}  // namespace diskvet::runner
