// `diskvet fleet` on reports made by the real run path (null engine): drives grouped by model,
// firmware and capacity, a slow drive flagged against its group's median with the group's size,
// failures first, max-IOPS read at one queue depth the whole group ran, and the CSV.
#include "runner/compare/fleet.hpp"

#include <gtest/gtest.h>
#include <fmt/format.h>

#include "runner/report/report_file.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace dvt = diskvet::testing;

namespace {

const char* kPassableProfile = R"({
  "name": "null-5k", "source": "test",
  "limits": {"max-iops": {"read.iops": {"min": 5000}}}
})";

// Sweeps that stop at different depths: a 3-step and a 2-step suite share QD1 and QD4 only.
std::string suite_with_steps(const std::string& steps) {
  std::string s = dvt::kNullSuite;
  const std::string from = R"([{"iodepth": 1}, {"iodepth": 4}, {"iodepth": 16}])";
  s.replace(s.find(from), from.size(), steps);
  return s;
}

const FleetRow* row(const Fleet& f, const std::string& serial) {
  for (const auto& r : f.rows)
    if (r.device.serial == serial) return &r;
  return nullptr;
}

}  // namespace

TEST(Fleet, ASlowDriveAmongIdenticalOnesIsAnOutlierAndFailuresComeFirst) {
  // Host 1: three identical drives, one capped far below the others; host 2: one more of them and a
  // drive of the same model with other firmware (another group), each in its own report. The
  // healthy ones run at a cap of their own too, so their IOPS do not depend on the test machine.
  const uint64_t cap = 20000;
  const auto r1 = index_report(dvt::null_run_report({{.path = "h1-a", .serial = "A", .rate_cap_iops = cap}, {.path = "h1-b", .serial = "B", .rate_cap_iops = cap},
                                                     {.path = "h1-c", .serial = "C", .rate_cap_iops = 2000}},
                                                    dvt::kNullSuite, kPassableProfile),
                               "host1.json");
  const auto r2 = index_report(dvt::null_run_report({{.path = "h2-d", .serial = "D", .rate_cap_iops = cap}, {.path = "h2-e", .serial = "E", .firmware = "2.0"}},
                                                    dvt::kNullSuite, kPassableProfile),
                               "host2.json");
  // C runs at a tenth of the others' cap. The threshold is set far above what a loaded machine does
  // to a capped null-engine job (a short sweep step starved for a while ends below its cap), and far
  // below C's gap, so only C can be an outlier whatever else runs on the machine.
  FleetOptions options;
  options.outlier_pct = 50;
  const Fleet f = build_fleet({r1, r2}, options);
  ASSERT_EQ(f.rows.size(), 5u);
  ASSERT_EQ(f.groups.size(), 2u) << "firmware 2.0 is another population";
  const FleetRow* c = row(f, "C");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->group_size, 4u);
  EXPECT_EQ(row(f, "E")->group_size, 1u);
  EXPECT_TRUE(row(f, "E")->outliers.empty()) << "a group of one has no median to differ from";
  ASSERT_FALSE(c->outliers.empty());
  bool iops_outlier = false;
  for (const auto& o : c->outliers) iops_outlier = iops_outlier || (o.find("IOPS") != std::string::npos && o.find("below the median") != std::string::npos &&
                                                                     o.find("of 4 identical drives") != std::string::npos);
  EXPECT_TRUE(iops_outlier) << c->outliers.front();
  for (const char* fast : {"A", "B", "D"})
    for (const auto& o : row(f, fast)->outliers) EXPECT_EQ(o.find("IOPS ("), std::string::npos) << fast << ": " << o;
  // C fails max-iops (capped under 5000): it is the first row.
  EXPECT_EQ(f.rows.front().device.serial, "C");
  EXPECT_EQ(f.rows.front().device.verdict, "FAIL");
  const std::string csv = fleet_csv(f);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 6) << "a header and a line per drive";
  EXPECT_EQ(csv.substr(0, csv.find('\n')).find("verdict,serial,model,firmware,size_bytes"), 0u);
  EXPECT_NE(csv.find("\nFAIL,C,LAB-SSD,1.0,67108864,h1-c,host1.json,4,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("e+"), std::string::npos);
  const std::string html = fleet_html(f);
  EXPECT_NE(html.find("class=\"num worse\""), std::string::npos);
  // The findings are a row of their own under their drive, across the table (a narrow last column
  // made rows hundreds of pixels tall; the verdict column and the 9 after it: serial, model, path,
  // report, group, writes counted, error log, SMART counters, self-tests), and the report is named by
  // its file.
  EXPECT_NE(html.find(fmt::format("<tr class=\"findings\"><td></td><td colspan=\"{}\"><ul><li>failing: ", 11 + f.columns.size())), std::string::npos) << html;
  EXPECT_EQ(html.find("<th>findings</th>"), std::string::npos);
  EXPECT_NE(html.find("title=\"host1.json\">host1.json</td>"), std::string::npos) << html;
  // Within the group's row of the groups table: the other group (E alone) may be compared at the same
  // depth when its uncapped sweep stopped gaining early, as it does on a slow or loaded machine.
  const size_t group_row = html.find("<tr><td>LAB-SSD | fw 1.0 | 64MiB</td>");
  ASSERT_NE(group_row, std::string::npos) << html;
  const std::string row_html = html.substr(group_row, html.find("</tr>", group_row) - group_row);
  const std::string compared = "max-iops/randread#0/read: 4 outstanding";
  ASSERT_NE(row_html.find(compared), std::string::npos) << row_html;
  EXPECT_EQ(row_html.find(compared, row_html.find(compared) + 1), std::string::npos) << "once per workload, not per column: " << row_html;
  EXPECT_NE(fleet_text(f).find("OUTLIER"), std::string::npos);
}

TEST(Fleet, MaxIopsIsComparedAtTheDeepestQueueEveryDriveOfTheGroupRan) {
  const auto deep = index_report(dvt::null_run_report({{.serial = "DEEP"}}, suite_with_steps(R"([{"iodepth": 1}, {"iodepth": 4}, {"iodepth": 16}])").c_str()), "deep.json");
  const auto shallow = index_report(dvt::null_run_report({{.serial = "SHALLOW"}}, suite_with_steps(R"([{"iodepth": 1}, {"iodepth": 4}])").c_str()), "shallow.json");
  const Fleet f = build_fleet({deep, shallow}, FleetOptions{});
  ASSERT_EQ(f.groups.size(), 1u);
  const std::string col = "max-iops/randread#0/read:iops";
  ASSERT_TRUE(f.groups[0].common_outstanding.contains(col));
  EXPECT_EQ(f.groups[0].common_outstanding.at(col), 4) << "QD16 is not shared; each drive's own knee is not used";
  for (const auto& r : f.rows) {
    ASSERT_TRUE(r.cells.contains(col)) << r.device.serial;
    EXPECT_EQ(r.cells.at(col).outstanding, 4);
    // The value is the sweep's step at QD4, not the measurement at the drive's knee.
    const auto* w = r.device.find("max-iops/randread#0/read");
    ASSERT_NE(w, nullptr);
    for (const auto& s : w->sweep)
      if (s.outstanding == 4) {
        EXPECT_DOUBLE_EQ(*r.cells.at(col).value, s.iops);
      }
  }
}

TEST(Fleet, ReportsOfTheFirstSchemaJoinTheFleet) {
  auto old = load_report(DISKVET_TEST_DATA "/report-schema1-quick.json");
  ASSERT_TRUE(old.ok()) << old.error().message();
  const Fleet f = build_fleet({index_report(old->doc, "old.json")}, FleetOptions{});
  ASSERT_EQ(f.rows.size(), 2u);
  ASSERT_EQ(f.groups.size(), 1u);
  EXPECT_EQ(f.rows[0].group_size, 2u);
  // Both loop devices swept to 64 outstanding: the common depth.
  EXPECT_EQ(f.groups[0].common_outstanding.at("max-iops/randread#0/read:iops"), 64);
}

TEST(Fleet, EachDrivesHealthEvidenceHasItsColumnsAndItsFindings) {
  boost::json::object doc = dvt::null_run_report({{.path = "null-a", .serial = "SN-A"}, {.path = "null-b", .serial = "SN-B"}}, dvt::kNullSuite, kPassableProfile);
  auto& health = doc["devices"].as_array().at(1).as_object()["health"].as_object();
  health["write_accounting"] = {{"result", "counted_more"}, {"fails", true}, {"words", "counted 9GiB written for 4GiB sent"}};
  health["error_log"] = {{"new_entries", 2}, {"entries", boost::json::array{boost::json::object{{"fails", true}}, boost::json::object{{"fails", false}}}},
                         {"problems", boost::json::array{"Unrecovered Read Error at LBA 4096"}}};
  const Fleet f = build_fleet({index_report(doc, "run.json")}, FleetOptions{});
  const FleetRow* b = row(f, "SN-B");
  ASSERT_NE(b, nullptr);
  const std::string text = fleet_text(f);
  EXPECT_NE(text.find("health evidence: writes: counted 9GiB written for 4GiB sent"), std::string::npos) << text;
  EXPECT_NE(text.find("health evidence: error log: Unrecovered Read Error at LBA 4096"), std::string::npos) << text;
  const std::string csv = fleet_csv(f);
  EXPECT_NE(csv.find("outliers,writes_counted,error_log_new,error_log_failing"), std::string::npos);
  EXPECT_NE(csv.find(",counted_more,2,1"), std::string::npos) << csv;
  const std::string html = fleet_html(f);
  EXPECT_NE(html.find("<td class=\"worse\">counted_more</td><td class=\"worse\">1 of 2 new fail</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"\">-</td><td class=\"\">-</td><td class=\"\">-</td><td>- / -</td>"), std::string::npos)
      << "SN-A kept no counter and ran no self-test: dashes, not a pass";
}

TEST(Fleet, SataSasLogsAndWriteAmplificationHaveTheirColumns) {
  boost::json::object doc = dvt::null_run_report({{.path = "null-a", .serial = "SN-A"}, {.path = "null-b", .serial = "SN-B"}}, dvt::kNullSuite, kPassableProfile);
  auto& a = doc["devices"].as_array().at(0).as_object()["health"].as_object();
  a["write_amplification"] = {{"available", true}, {"factor", 2.5}, {"words", "2.50: the drive wrote ..."}};
  auto& b = doc["devices"].as_array().at(1).as_object()["health"].as_object();
  b["sata_sas_logs"] = {{"new_errors", 2}, {"unseen", 1}, {"findings", boost::json::array{boost::json::object{{"fails", true}}, boost::json::object{{"fails", false}}}},
                        {"problems", boost::json::array{"ATA error 3 (summary log): READ DMA: Error: UNC at LBA = 0x00000010 = 16: a media or data error"}}};
  b["write_amplification"] = {{"available", false}, {"words", "the drive has no OCP SMART / Health Information Extended log"}};
  const Fleet f = build_fleet({index_report(doc, "run.json")}, FleetOptions{});
  EXPECT_NE(fleet_text(f).find("health evidence: SATA/SAS log: ATA error 3 (summary log): READ DMA: Error: UNC"), std::string::npos) << fleet_text(f);
  const std::string csv = fleet_csv(f);
  EXPECT_NE(csv.find("self_test_after,sata_sas_log_new,sata_sas_log_failing,write_amplification"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",3,2,no OCP log,"), std::string::npos) << csv;  // a finding each and the entry the log lost
  EXPECT_NE(csv.find(",,,2.50,"), std::string::npos) << csv;
  const std::string html = fleet_html(f);
  EXPECT_NE(html.find("<td class=\"worse\">2 of 3 new fail</td><td>no OCP log</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td class=\"\">-</td><td>2.50</td>"), std::string::npos) << html;
}
