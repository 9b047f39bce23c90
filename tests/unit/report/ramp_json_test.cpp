// A workload's ramp series and its burst-then-baseline step in the report: the JSON add_ramp_and_burst
// writes from a measurement, and the line of the text report and the marked IOPS plot of the HTML
// page that read it.
#include <gtest/gtest.h>

#include "runner/report/ramp_json.hpp"
#include "runner/report/report_html.hpp"
#include "runner/report/report_text.hpp"
#include "tests/support/null_run_report.hpp"

using namespace diskvet;
using namespace diskvet::runner;
namespace json = boost::json;

namespace {

IntervalSample sample(double t_s, double dur_s, uint64_t ios) {
  IntervalSample s;
  s.t_s = t_s;
  s.dur_s = dur_s;
  s.ios[0] = ios;
  s.bytes[0] = ios * 4096;
  return s;
}

// A 15 s ramp in 1 s buckets: 1000 IOPS for 10 s, then 60; then a 2 s window at 60.
WorkloadRecord bursting(int burst_s) {
  WorkloadRecord r;
  r.ran = true;
  r.workload.ramp_s = 15;
  r.result.ramp_bucket_s = 1;
  for (int i = 0; i < 15; ++i) r.result.ramp_intervals.push_back(sample(i, 1, i < burst_s ? 1000 : 60));
  for (int i = 0; i < 2; ++i) r.result.intervals.push(sample(i, 1, 60));
  return r;
}

}  // namespace

TEST(RampReport, ABurstSpentInTheRampIsFoundAndSaidWithTheBaselineJudged) {
  json::object o;
  add_ramp_and_burst(o, bursting(10));
  ASSERT_TRUE(o.contains("ramp"));
  EXPECT_EQ(o["ramp"].at("intervals").as_array().size(), 15u);
  EXPECT_DOUBLE_EQ(o["ramp"].at("intervals").as_array()[0].at("read").at("iops").to_number<double>(), 1000);
  const json::object& b = o["burst"].as_object();
  EXPECT_TRUE(b.at("found").as_bool());
  EXPECT_TRUE(b.at("in_ramp").as_bool());
  EXPECT_DOUBLE_EQ(b.at("before_iops").to_number<double>(), 1000);
  EXPECT_DOUBLE_EQ(b.at("after_iops").to_number<double>(), 60);
  EXPECT_DOUBLE_EQ(b.at("step_s").to_number<double>(), 10);
  EXPECT_EQ(b.at("summary").as_string(), "burst of 1000 IOPS for 10 s, then a baseline of 60 IOPS; judged on the baseline");
}

TEST(RampReport, AStepInsideTheMeasuredWindowOrNoStepIsSaidToo) {
  // The burst outlasts the 15 s ramp: the window mixes burst and baseline.
  WorkloadRecord late = bursting(15);
  late.result.intervals = IntervalSeries{};
  for (int i = 0; i < 10; ++i) late.result.intervals.push(sample(i, 1, i < 3 ? 1000 : 60));
  json::object o;
  add_ramp_and_burst(o, late);
  EXPECT_FALSE(o["burst"].at("in_ramp").as_bool());
  EXPECT_NE(std::string(o["burst"].at("summary").as_string()).find("inside the measured window"), std::string::npos);
  json::object none;
  add_ramp_and_burst(none, bursting(0));
  EXPECT_FALSE(none["burst"].at("found").as_bool());
  EXPECT_EQ(none["burst"].at("summary").as_string(), "no burst-then-baseline step in the ramp and the measured window");
  // No ramp series, no ramp or burst at all.
  json::object nothing;
  add_ramp_and_burst(nothing, WorkloadRecord{});
  EXPECT_TRUE(nothing.empty());
}

TEST(RampReport, TheTextSaysTheStepAndThePageDrawsTheRampWithTheStepMarked) {
  auto doc = diskvet::testing::null_run_report({diskvet::testing::NullDrive{.serial = "SN-1"}});
  json::object& w = doc["devices"].as_array()[0].as_object()["tests"].as_array()[0].as_object()["workloads"].as_array()[0].as_object();
  const size_t measured = w["result"].at("intervals").as_array().size();
  add_ramp_and_burst(w, bursting(10));
  w["ramp_s"] = 15;
  w.erase("steady_state");  // as cloud-burst runs it: the ramp, then the window (no rounds)
  const std::string text = render_report_text(doc);
  EXPECT_NE(text.find("burst: latency-qd1 "), std::string::npos) << text;
  EXPECT_NE(text.find(": burst of 1000 IOPS for 10 s, then a baseline of 60 IOPS; judged on the baseline"), std::string::npos) << text;
  const std::string html = render_report_html(doc, true);
  EXPECT_NE(html.find("Burst: burst of 1000 IOPS for 10 s, then a baseline of 60 IOPS; judged on the baseline."), std::string::npos);
  EXPECT_NE(html.find("burst ends: 1000 to 60 IOPS"), std::string::npos);
  // The IOPS plot holds the ramp's 15 samples before the measured ones.
  const std::string points = "data-plot=\"timeline-iops\" data-points=\"" + std::to_string(15 + measured) + "\"";
  EXPECT_NE(html.find(points), std::string::npos) << points;
}
