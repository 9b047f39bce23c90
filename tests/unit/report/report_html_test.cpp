// The HTML page of a report made by the real run path (null engine): verdict cards first with the
// failing metric first, numbers for people, every plot drawn with data, the fio toggle, print and
// phone styles; and a report of the first release (schema 1, checked in) still renders.
#include "runner/report/report_html.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

#include "runner/report/report_file.hpp"
#include "runner/report/report_text.hpp"
#include "runner/report/svg_plot.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace dvt = diskvet::testing;

namespace {

// data-plot kind and data-points count of every <svg> on the page.
std::vector<std::pair<std::string, int>> plots(const std::string& html) {
  std::vector<std::pair<std::string, int>> out;
  static const std::regex svg(R"re(<svg class="plot" data-plot="([a-z-]*)" data-points="(\d+)")re");
  for (std::sregex_iterator it(html.begin(), html.end(), svg), end; it != end; ++it) out.emplace_back((*it)[1], std::stoi((*it)[2]));
  return out;
}

size_t count_of(const std::string& html, const std::string& what) {
  size_t n = 0;
  for (size_t at = html.find(what); at != std::string::npos; at = html.find(what, at + 1)) ++n;
  return n;
}


}  // namespace

TEST(ReportHtml, CardsComeFirstAndShowTheFailingMetricBeforeThePassingOnes) {
  dvt::NullDrive a{.path = "null-a", .serial = "SN-A"}, b{.path = "null-b", .serial = "SN-B"};
  const auto doc = dvt::null_run_report({a, b});
  const std::string html = render_report_html(doc, true);
  const size_t cards = html.find("<section class=\"cards\">"), first_device = html.find("<section class=\"device\">");
  ASSERT_NE(cards, std::string::npos);
  ASSERT_NE(first_device, std::string::npos);
  EXPECT_LT(cards, first_device) << "the verdict cards are the first screen";
  const std::string card = html.substr(cards, first_device - cards);
  EXPECT_EQ(count_of(card, "<div class=\"card FAIL\">"), 2u);
  EXPECT_NE(card.find("SN-A"), std::string::npos);
  EXPECT_NE(card.find("SN-B"), std::string::npos);
  EXPECT_NE(card.find("lab limits for the null engine"), std::string::npos) << "the profile's source is on the card";
  // The one failing metric is listed, with its limit in IOPS and how far short it is.
  const size_t fail = card.find("FAIL max-iops read.iops");
  ASSERT_NE(fail, std::string::npos) << card;
  EXPECT_NE(card.find("% short", fail), std::string::npos);
  EXPECT_NE(card.find("&ge; 1000.00G IOPS", fail), std::string::npos) << card;
  EXPECT_NE(card.find("metric(s) passed"), std::string::npos);
  // In each device's table the FAIL row comes before every PASS row.
  const size_t table = html.find("<table>", first_device);
  EXPECT_LT(html.find("<td class=\"FAIL\">", table), html.find("<td class=\"PASS\">", table));
}

TEST(ReportHtml, NumbersAreForPeopleNeverAnExponentOrAHugePercentage) {
  const auto doc = dvt::null_run_report({dvt::NullDrive{.serial = "SN-1"}});
  const std::string html = render_report_html(doc, true);
  const std::string text = render_report_text(doc);
  for (const std::string* page : {&html, &text}) {
    EXPECT_FALSE(std::regex_search(*page, std::regex(R"(\d[eE][+-]\d)"))) << "scientific notation";
    EXPECT_FALSE(std::regex_search(*page, std::regex(R"(\+\d{4,}(\.\d)?%)"))) << "a margin in the thousands of percent";
  }
  EXPECT_NE(html.find("under the limit"), std::string::npos) << "latency margins in words";
  EXPECT_NE(text.find("under the limit"), std::string::npos) << "the text report says the same";
  EXPECT_NE(html.find("&le; 100 ms"), std::string::npos) << "a 100000 us limit reads 100 ms";
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(\d(\.\d)?[kM]? IOPS)")));
}

TEST(ReportHtml, EveryWorkloadHasItsPlotsWithDataAndAFioToggle) {
  const auto doc = dvt::null_run_report({dvt::NullDrive{.serial = "SN-1"}});
  const std::string html = render_report_html(doc, true);
  const auto p = plots(html);
  std::map<std::string, int> kinds;
  for (const auto& [kind, n] : p) {
    EXPECT_GT(n, 0) << kind << " is empty";
    ++kinds[kind];
  }
  // Three workloads (two latency, one sweep): percentiles and both time lines each, one sweep.
  EXPECT_EQ(kinds["percentiles"], 3);
  EXPECT_EQ(kinds["timeline-iops"], 3);
  EXPECT_EQ(kinds["timeline-latency"], 3);
  EXPECT_EQ(kinds["sweep"], 1);
  EXPECT_EQ(count_of(html, "<details><summary>Reproduce with fio</summary><pre>fio "), 3u);
  // Percentiles on a log latency axis against nines, the limit drawn.
  EXPECT_NE(html.find(">p99.9<"), std::string::npos);
  EXPECT_NE(html.find("read p99 limit 100 ms"), std::string::npos);
  // The sweep marks its knee; the time lines mark the steady-state rounds and the ramp.
  EXPECT_NE(html.find("knee: "), std::string::npos);
  EXPECT_NE(html.find("class=\"marker\""), std::string::npos);
  EXPECT_NE(html.find("rounds at randread"), std::string::npos);
  EXPECT_NE(html.find(">ramp"), std::string::npos);
  // Self-contained, phone and print.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href|url)[=(]"?https?:)"))) << "nothing fetched";
  EXPECT_NE(html.find("name=\"viewport\""), std::string::npos);
  EXPECT_NE(html.find("@page{size:A4"), std::string::npos);
  EXPECT_NE(html.find(".device{break-before:page}"), std::string::npos);
}

TEST(ReportHtml, HealthBeforeAndAfterAreOnTheCard) {
  dvt::NullDrive d{.serial = "SN-H"};
  devices::Health before, after;
  before.known = after.known = true;
  before.source = after.source = "test";
  before.temperature_c = 40;
  after.temperature_c = 52;
  before.media_errors = 0;
  after.media_errors = 3;
  d.health_before = before;
  d.health_after = after;
  const std::string html = render_report_html(dvt::null_run_report({d}), true);
  EXPECT_NE(html.find("40 °C"), std::string::npos);
  EXPECT_NE(html.find("52 °C"), std::string::npos);
  EXPECT_NE(html.find("3 media errors"), std::string::npos);
}

TEST(ReportHtml, ThePageSaysWhatEachHealthCheckReadsAndFromWhichSpecification) {
  // A drive with a health source: the page keys its evidence lines. One without (a loop device): no key.
  dvt::NullDrive d{.serial = "SN-K"};
  devices::Health h;
  h.known = true;
  h.source = "test";
  d.health_before = d.health_after = h;
  const std::string html = render_report_html(dvt::null_run_report({d}), true);
  EXPECT_EQ(render_report_html(dvt::null_run_report({dvt::NullDrive{.serial = "SN-PLAIN"}}), true).find("Health evidence: what each line"),
            std::string::npos);
  const size_t key = html.find("Health evidence: what each line checks, and its source");
  ASSERT_NE(key, std::string::npos);
  for (const char* source : {"NVM Express Base Specification", "log page 02h", "log page 01h", "ATA/ACS", "GP log 03h", "SPC-4 log page 10h",
                             "OCP Datacenter NVMe SSD Specification", "log page C0h", "admin command 14h", "SEND DIAGNOSTIC"})
    EXPECT_NE(html.find(source, key), std::string::npos) << source;
}

TEST(ReportHtml, WhatADriveReportsAboutItselfIsTextNeverMarkup) {
  EXPECT_EQ(html_escape(R"(a'b<c>&"d)"), "a&#39;b&lt;c&gt;&amp;&quot;d");
  // A serial is whatever the drive's firmware (or a USB bridge) answers; the page must show it, not run it.
  dvt::NullDrive d{.serial = "SN'<img src=x onerror=alert(1)>"};
  const std::string html = render_report_html(dvt::null_run_report({d}), true);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_NE(html.find("SN&#39;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
}

TEST(ReportHtml, AReportOfTheFirstReleaseStillRendersAndSaysWhatItLacks) {
  // Written by diskvet before schema 2 (quick suite, two loop devices), kept as it was.
  auto r = load_report(DISKVET_TEST_DATA "/report-schema1-quick.json");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_TRUE(r->seal_ok);
  const std::string html = render_report_html(r->doc, r->seal_ok);
  EXPECT_NE(html.find("schema diskvet-report/1"), std::string::npos);
  EXPECT_EQ(count_of(html, "<div class=\"card PASS\">"), 4u) << "two cards on the first screen, one atop each device";
  for (const auto& [kind, n] : plots(html)) EXPECT_GT(n, 0) << kind;
  EXPECT_NE(html.find("239.1k IOPS"), std::string::npos);
  EXPECT_NE(render_report_text(r->doc).find("OVERALL: PASS"), std::string::npos);
}

// A pass shorter than one interval has a one-interval series: it is drawn as a flat line across that
// interval, not as a single point that draws nothing (the browser test rejects a plot with no line).
TEST(ReportHtml, AWindowOfOneIntervalIsDrawnAsALineAcrossIt) {
  auto doc = dvt::null_run_report({dvt::NullDrive{.serial = "SN-1"}});
  auto& w = doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["workloads"].as_array()[0].as_object();
  auto& intervals = w["result"].as_object()["intervals"].as_array();
  ASSERT_GE(intervals.size(), 2u);
  intervals.resize(1);
  w.erase("steady_state");
  w.erase("warmup");
  const std::string html = render_report_html(doc, true);
  const size_t svg = html.find("data-plot=\"timeline-iops\"");
  ASSERT_NE(svg, std::string::npos);
  const size_t line = html.find("<polyline class=\"series\"", svg);
  ASSERT_NE(line, std::string::npos);
  const size_t at = html.find("points=\"", line) + 8;
  const std::string pts = html.substr(at, html.find('"', at) - at);
  EXPECT_EQ(std::count(pts.begin(), pts.end(), ','), 2) << "two ends of one flat line: " << pts;
}
