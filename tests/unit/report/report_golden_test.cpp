// Saved reports of each kind rendered as `diskvet report`, `diskvet compare` and `diskvet fleet`
// print them, byte for byte against the output kept in tests/data/report_golden (written by the
// diskvet of the commit that added each file: see its README). A renderer that reads the report
// differently shows here as the first line that changed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runner/compare/compare.hpp"
#include "runner/compare/fleet.hpp"
#include "runner/compare/report_index.hpp"
#include "runner/hosts/hosts_report_render.hpp"
#include "runner/report/report_file.hpp"
#include "runner/report/report_html.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_text.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/suite.hpp"
#include "tests/support/hosts_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

const std::string kDir = DISKVET_TEST_DATA "/report_golden/";

std::string read_kept(const std::string& name) {
  std::ifstream in(kDir + name, std::ios::binary);
  if (!in) return "(no file " + kDir + name + ")";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Empty when equal; else the first line that differs, numbered from 1, as kept and as rendered.
std::string first_difference(const std::string& kept, const std::string& rendered) {
  if (kept == rendered) return "";
  std::istringstream a(kept), b(rendered);
  std::string la, lb;
  for (size_t line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la)), more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "the two differ only in their last newline";
    if (!more_a || !more_b || la != lb) {
      // An HTML page is a few long lines: show where in the line it starts to differ.
      size_t col = 0;
      while (col < la.size() && col < lb.size() && la[col] == lb[col]) ++col;
      const size_t from = col > 80 ? col - 80 : 0;
      return "line " + std::to_string(line) + ", column " + std::to_string(col + 1) + ":\n  kept:     " +
             (more_a ? la.substr(from, 240) : std::string("(end of file)")) + "\n  rendered: " + (more_b ? lb.substr(from, 240) : std::string("(end of file)"));
    }
  }
}

LoadedReport load(const std::string& name) {
  auto r = load_report(kDir + name);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message());
  return r.ok() ? *r : LoadedReport{};
}

// As `diskvet compare` and `diskvet fleet` index a report named on their command line (here by its
// file name: the kept output was written from within the folder).
ReportIndex index_named(const std::string& name) {
  const LoadedReport r = load(name);
  return index_report(r.doc, name);
}

// The per-drive reports kept, each with NAME.txt (`diskvet report NAME.json`) and NAME.html
// (`diskvet report NAME.json --html NAME.html`).
const std::vector<std::string> kDriveReports = {
    "quick-loop",             // `quick` on a loop device, schema 1, sealed
    "schema1-two-drives",     // the first release's report of two loop devices
    "minimal-sweep",          // a hand-made schema 1 report with little in it
    "null-two-drives-pass",   // latency and a max-IOPS sweep after steady-state rounds, two drives
    "null-fail",              // the same suite failing a limit
    "null-cloud-burst",       // a ramp series with a burst step
    "null-burnin-stall-mismatch",  // a burn-in with a health series, a stall and a mismatch
    "burnin-stall-mismatch",  // the fuzz corpus's burn-in: kernel lines, slowdowns, verification
    "sata-logs-write-amplification",  // SATA/SAS logs, SMART counters, self-tests, write amplification
    "snia-iops-matrix",       // the PTS-E IOPS matrix on a 4Kn null device: a table, skipped cells
    "capacity-probe",         // probe-capacity alone on a file
};

}  // namespace

TEST(ReportGolden, EveryKeptReportRendersAsTextAsItDidWhenKept) {
  for (const auto& name : kDriveReports) {
    const LoadedReport r = load(name + ".json");
    const std::string diff = first_difference(read_kept(name + ".txt"), render_report_text(r.doc));
    EXPECT_EQ(diff, "") << name << ".txt";
  }
}

TEST(ReportGolden, EveryKeptReportRendersAsHtmlAsItDidWhenKept) {
  for (const auto& name : kDriveReports) {
    const LoadedReport r = load(name + ".json");
    const std::string diff = first_difference(read_kept(name + ".html"), render_report_html(r.doc, r.seal_ok));
    EXPECT_EQ(diff, "") << name << ".html";
  }
}

TEST(ReportGolden, AMultiHostReportRendersAsItDidWhenKept) {
  const LoadedReport r = load("hosts.json");
  EXPECT_EQ(first_difference(read_kept("hosts.txt"), render_hosts_text(decode_report(r.doc))), "") << "hosts.txt";
  EXPECT_EQ(first_difference(read_kept("hosts.html"), render_hosts_html(decode_report(r.doc), r.seal_ok)), "") << "hosts.html";
}

// `diskvet compare A B [--html OUT]`: the text on stdout, the page written.
TEST(ReportGolden, ComparisonsRenderAsTheyDidWhenKept) {
  struct Case {
    std::string a, b, kept;
  };
  for (const Case& c : {Case{"null-two-drives-pass.json", "null-fail.json", "compare-pass-fail"},
                        Case{"schema1-two-drives.json", "quick-loop.json", "compare-schema1-quick"},
                        Case{"hosts.json", "hosts-slower.json", "compare-hosts"}}) {
    const CompareOptions options;
    const ReportIndex a = index_named(c.a), b = index_named(c.b);  // the comparison points into both
    const std::vector<Comparison> cs{compare_reports(a, b, options)};
    EXPECT_EQ(first_difference(read_kept(c.kept + ".txt"), compare_text(cs, options)), "") << c.kept << ".txt";
    EXPECT_EQ(first_difference(read_kept(c.kept + ".html"), compare_html(cs, options)), "") << c.kept << ".html";
  }
}

// `diskvet fleet FILES... --html OUT --csv OUT`.
TEST(ReportGolden, AFleetOfTheKeptDriveReportsRendersAsItDidWhenKept) {
  std::vector<ReportIndex> reports;
  for (const char* name : {"quick-loop.json", "schema1-two-drives.json", "null-two-drives-pass.json", "null-fail.json", "sata-logs-write-amplification.json"})
    reports.push_back(index_named(name));
  const Fleet f = build_fleet(reports, {});
  EXPECT_EQ(first_difference(read_kept("fleet.txt"), fleet_text(f)), "") << "fleet.txt";
  EXPECT_EQ(first_difference(read_kept("fleet.html"), fleet_html(f)), "") << "fleet.html";
  EXPECT_EQ(first_difference(read_kept("fleet.csv"), fleet_csv(f)), "") << "fleet.csv";
}

// Not a test: how the reports of this folder that no other tool writes were made, once, by the real
// run path (the snia-iops matrix, the probe alone, two multi-host reports from the captured fio
// output). Run it with --gtest_also_run_disabled_tests and DISKVET_GOLDEN_OUT=DIR to make new ones;
// they differ in every timing, so the kept output must be written again from them.
TEST(ReportGolden, DISABLED_WritesTheReportsMadeHere) {
  const char* out = std::getenv("DISKVET_GOLDEN_OUT");
  ASSERT_NE(out, nullptr) << "set DISKVET_GOLDEN_OUT to the folder to write to";
  auto write = [&](const std::string& name, const boost::json::object& doc) { std::ofstream(std::string(out) + "/" + name) << seal_report(doc) << "\n"; };
  write("hosts.json", diskvet::testing::hosts_report(DISKVET_UNIT_DATA, {.test_status = "PASS"}));
  write("hosts-slower.json", diskvet::testing::hosts_report(DISKVET_UNIT_DATA, {.slower = {{"h2", 0.5}}, .verdict = "FAIL", .test_status = "FAIL"}));

  auto suite = suites::builtin_suite("snia-iops");
  ASSERT_TRUE(suite.ok()) << suite.error().message();
  suite->purge = false;
  suite->probe.enabled = false;
  suite->precondition.capacities = 0.1;
  suite->steady_state.round_s = 0.02;
  suite->steady_state.criteria.window_rounds = 2;
  suite->steady_state.criteria.max_rounds = 2;
  for (auto& w : suite->tests.at(0).workloads) w.engine = BackendKind::null, w.interval_s = 0.01, w.numjobs = 1;
  RunPlan matrix;
  matrix.suite = *suite;
  matrix.options.measurement_only = true;
  devices::Device dev;
  dev.path = "null-4kn";
  dev.model = "LAB-SSD";
  dev.serial = "SN-4KN";
  dev.size_bytes = 64u << 20;
  dev.logical_block_size = 4096;
  matrix.devices.push_back(DevicePlan{dev, Target::null(64u << 20, 4096), std::nullopt, "", 0});
  RunEvents quiet;
  write("snia-iops-matrix.json", report_json(run_suite(matrix, RunHooks{}, quiet), probe_host()));

  const std::string scratch = std::string(out) + "/capacity-probe.img";
  auto target = Target::open(scratch, true, 8u << 20);
  ASSERT_TRUE(target.ok()) << target.error().message();
  RunPlan probe;
  probe.suite.name = "probe-capacity";
  probe.suite.probe.enabled = false;
  probe.suite.address_probe.enabled = true;
  devices::Device file;
  file.path = "capacity-probe.img";
  probe.devices.push_back(DevicePlan{file, std::move(*target), std::nullopt, "", 0});
  write("capacity-probe.json", report_json(run_suite(probe, RunHooks{}, quiet), probe_host()));
  std::filesystem::remove(scratch);
}
