// Rendering a report read back from a file: its numbers are outside input. Negative, huge and
// fractional values (found by fuzzing `diskvet report`) render as text and HTML without an undefined
// conversion, and an index that points nowhere shows nothing rather than another element.
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

TEST(ReportRender, SizesThatAreNegativeOrHugeShowAsZeroNotAWrappedNumber) {
  for (double size : {-1.0, 8.88889e79, 1.8446744073709552e19}) {
    std::string text = render_report_text(report_with(size, size, 1));
    EXPECT_NE(text.find("tested 0B of 0B"), std::string::npos) << size << "\n" << text;
    EXPECT_NE(text.find("randread 0B"), std::string::npos) << size;
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
