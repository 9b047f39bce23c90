// Rendering a report read back from a file: its numbers are outside input. Negative, huge and
// fractional values (found by fuzzing `diskvet report`) render as text and HTML without an undefined
// conversion, an index that points nowhere shows nothing rather than another element, and a number
// the report does not hold reads "-" (or its line is left out), never 0.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "runner/report/report_file.hpp"
#include "runner/report/report_html.hpp"
#include "runner/report/report_text.hpp"

using namespace diskvet::runner;
namespace json = boost::json;

namespace {

json::object report_with(const json::value& size_bytes, const json::value& bs, const json::value& knee) {
  json::object point_a{{"outstanding", 1}, {"iops", 1000}}, point_b{{"outstanding", 32}, {"iops", 7777}};
  json::object workload{{"rw", "randread"}, {"bs", bs}, {"ran", false},
                        {"sweep", json::object{{"knee", knee}, {"points", json::array{point_a, point_b}}}}};
  json::object test{{"id", "max-iops"}, {"workloads", json::array{workload}}};
  json::object device{{"path", "/dev/x"}, {"size_bytes", size_bytes}, {"tested_bytes", size_bytes}, {"tests", json::array{test}}};
  return json::object{{"schema", "diskvet-report/1"}, {"devices", json::array{device}}};
}

}  // namespace

TEST(ReportRender, SizesThatAreNegativeOrHugeShowAsUnknownNotAWrappedNumber) {
  for (double size : {-1.0, 8.88889e79, 1.8446744073709552e19}) {
    std::string text = render_report_text(report_with(size, size, 1));
    EXPECT_NE(text.find("tested - of -"), std::string::npos) << size << "\n" << text;
    EXPECT_NE(text.find("randread - QD"), std::string::npos) << size;
    EXPECT_FALSE(render_report_html(report_with(size, size, 1), true).empty());
  }
  EXPECT_NE(render_report_text(report_with(1 << 30, 4096, 1)).find("tested 1GiB of 1GiB"), std::string::npos);
}

TEST(ReportRender, KneeThatIsNotAnIndexOfThePointsShowsNoKnee) {
  EXPECT_NE(render_report_text(report_with(4096, 4096, 1)).find("knee: max-iops randread: 7777 IOPS at 32 outstanding"), std::string::npos);
  for (double knee : {-1.0, 0.5, 2.0, 1e30}) {
    EXPECT_EQ(render_report_text(report_with(4096, 4096, knee)).find("knee:"), std::string::npos) << knee;
    EXPECT_FALSE(render_report_html(report_with(4096, 4096, knee), true).empty());
  }
}

TEST(ReportRender, TextThatIsNotAReportIsAnInputError) {
  for (const char* text : {"", "[]", "{\"schema\": 7}", "{\"schema\": \"diskvet-report/999\"}", "{\"schema\": \"diskvet-report/1\""}) {
    auto r = parse_report(text, "r.json");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().exit_code(), 2) << text;
  }
  EXPECT_TRUE(parse_report("{\"schema\": \"diskvet-report/1\"}", "r.json").ok());
}

// A result that holds no p99.99, a device with no CPU sampled and a preconditioning pass that
// recorded no capacities: before the typed view, text and HTML printed 0 ns, a CPU line of zeros
// and "0.00 of 0.00 capacities". A direction with a negative I/O count is not a measurement, in the
// text as in the HTML (the text printed it).
TEST(ReportRender, ANumberTheReportDoesNotHoldIsNeverShownAsZero) {
  json::object read{{"total_ios", 10},
                    {"iops", 10},
                    {"bw_bytes", 40960},
                    {"lat_ns", json::object{{"mean", 1500}, {"percentile", json::object{{"99.000000", 2000}}}}}};
  json::object write{{"total_ios", -5}, {"iops", 3}, {"bw_bytes", 1}, {"lat_ns", json::object{{"mean", 7}}}};
  json::object workload{{"rw", "randrw"}, {"bs", 4096},  {"iodepth", 1},
                        {"numjobs", 1},   {"ran", true}, {"result", json::object{{"read", read}, {"write", write}}}};
  json::object test{{"id", "t"}, {"workloads", json::array{workload}}};
  json::object device{{"path", "/dev/x"},     {"size_bytes", 4096},
                      {"tested_bytes", 4096}, {"tests", json::array{test}},
                      {"verdict", "PASS"},    {"precondition", json::object{{"performed", true}, {"bytes_written", 1}, {"elapsed_s", 1}}}};
  const json::object report{{"schema", "diskvet-report/1"}, {"devices", json::array{device}}, {"verdict", "PASS"}, {"exit_code", 0}};

  const std::string text = render_report_text(report);
  EXPECT_NE(text.find("randrw 4KiB QD1x1 r               10       0.0    1.50us    2.00us         -\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("randrw 4KiB QD1x1 w"), std::string::npos) << text;
  EXPECT_EQ(text.find("0ns"), std::string::npos) << text;
  EXPECT_NE(text.find("precondition: written (1B) in 1s\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("capacities"), std::string::npos) << text;
  EXPECT_EQ(text.find("cpu:"), std::string::npos) << text;

  const std::string html = render_report_html(report, true);
  EXPECT_NE(html.find("p99.99 -</li>"), std::string::npos);
  EXPECT_EQ(html.find("<b>write</b>"), std::string::npos);
  EXPECT_NE(html.find("Preconditioning: written (1B) in 1 s"), std::string::npos);
  EXPECT_EQ(html.find("capacities"), std::string::npos);
}

// A device whose job threads were timed but whose host was not sampled says so instead of a line of
// zeros; one whose host was sampled keeps the full line.
TEST(ReportRender, TheCpuLineSaysWhatWasNotSampled) {
  auto report = [](const json::value& cpu) {
    json::object device{{"path", "/dev/x"}, {"tests", json::array{}}, {"verdict", "PASS"}, {"cpu", cpu}};
    return json::object{{"schema", "diskvet-report/1"}, {"devices", json::array{device}}, {"verdict", "PASS"}, {"exit_code", 0}};
  };
  const std::string unsampled = render_report_text(report(json::object{{"job_cpu_s", 0.25}, {"host", nullptr}}));
  EXPECT_NE(unsampled.find("cpu: job threads 0.25 s; the host's CPU was not sampled\n"), std::string::npos) << unsampled;
  EXPECT_NE(render_report_html(report(json::object{{"job_cpu_s", 0.25}, {"host", nullptr}}), true).find("the host's CPU was not sampled"),
            std::string::npos);
  const json::object host{{"window_s", 2},    {"busy_pct", 50},  {"user_pct", 40}, {"system_pct", 10}, {"irq_pct", 0},
                          {"softirq_pct", 0}, {"system_s", 0.2}, {"irq_s", 0},     {"softirq_s", 0}};
  const std::string sampled = render_report_text(report(json::object{{"job_cpu_s", 0.25}, {"host", host}}));
  EXPECT_NE(sampled.find("cpu: job threads 0.25 s; host over the tests (2s): 50.0% busy = user 40.0% + system 10.0%"), std::string::npos)
      << sampled;
}
