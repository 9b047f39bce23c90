// The address-integrity probe as a step of a device run: first on a device the run writes, never on
// one opened read-only, its verdict folded into the device's, its section in the report.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "runner/report/report_html.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/report_text.hpp"
#include "runner/run/suite_run.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

class Phases final : public RunEvents {
 public:
  void on_phase(const PhaseEvent& e) override { phases.push_back(e.phase); }
  void on_progress(const ProgressEvent& e) override {
    if (e.phase == Phase::capacity_probe) ++probe_progress;
  }
  std::vector<Phase> phases;
  int probe_progress = 0;
};

// A suite whose only step is the probe (what `diskvet probe-capacity` runs).
suites::Suite probe_only() {
  suites::Suite s;
  s.name = "probe-capacity";
  s.probe.enabled = false;
  s.address_probe.enabled = true;
  return s;
}

// The probe-only suite on `target` (a file at `path`), watched by `ev`.
RunResult run_probe_only(Target target, const std::string& path, Phases& ev) {
  RunPlan plan;
  plan.suite = probe_only();
  devices::Device dev;
  dev.path = path;
  plan.devices.push_back(DevicePlan{dev, std::move(target), std::nullopt, "", 0});
  return run_suite(plan, RunHooks{}, ev);
}

struct ScratchTarget {
  std::string path = (std::filesystem::current_path() / fmt::format("diskvet-capacity-probe-{}.img", getpid())).string();
  ~ScratchTarget() { std::filesystem::remove(path); }
};

}  // namespace

TEST(CapacityProbeRun, RunsFirstOnAWritableDeviceAndPassesWhenEveryAddressHolds) {
  ScratchTarget scratch;
  auto target = Target::open(scratch.path, true, 8u << 20);
  if (!target) GTEST_SKIP() << "no O_DIRECT scratch file here: " << target.error().message();
  Phases ev;
  RunResult r = run_probe_only(std::move(*target), scratch.path, ev);

  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceResult& d = r.devices[0];
  ASSERT_TRUE(d.capacity_probe);
  EXPECT_TRUE(d.capacity_probe->performed);
  EXPECT_FALSE(d.capacity_probe->failed()) << d.capacity_probe->summary();
  EXPECT_EQ(d.capacity_probe->real_bytes, 8u << 20);
  EXPECT_EQ(d.verdict.status, VerdictStatus::pass) << (d.verdict.reasons.empty() ? "" : d.verdict.reasons[0]);
  EXPECT_EQ(r.exit_code(), 0);
  ASSERT_GE(ev.phases.size(), 2u);
  EXPECT_EQ(ev.phases[0], Phase::health_before);
  EXPECT_EQ(ev.phases[1], Phase::capacity_probe);
  EXPECT_GT(ev.probe_progress, 0);

  auto doc = report_json(r, probe_host());
  const auto& c = doc.at("devices").at(0).at("capacity_probe");
  EXPECT_EQ(c.at("verdict").as_string(), "PASS");
  EXPECT_EQ(c.at("claimed_bytes").to_number<uint64_t>(), 8u << 20);
  const std::string text = render_report_text(doc);
  EXPECT_NE(text.find("capacity probe: PASS - real capacity 8MiB of 8MiB claimed"), std::string::npos) << text;
  EXPECT_EQ(text.find("no verdicts"), std::string::npos) << "a probe-only run has no performance limits to miss\n" << text;
  const std::string html = render_report_html(doc, true);
  EXPECT_NE(html.find("Capacity probe: PASS &mdash; real capacity 8MiB of 8MiB claimed"), std::string::npos);
}

TEST(CapacityProbeRun, NeverRunsOnADeviceOpenedReadOnly) {
  ScratchTarget scratch;
  {
    auto made = Target::open(scratch.path, true, 8u << 20);
    if (!made) GTEST_SKIP() << "no O_DIRECT scratch file here: " << made.error().message();
  }
  auto target = Target::open(scratch.path, false);
  ASSERT_TRUE(target) << target.error().message();
  Phases ev;
  RunResult r = run_probe_only(std::move(*target), scratch.path, ev);
  EXPECT_FALSE(r.devices[0].capacity_probe);
  EXPECT_EQ(std::count(ev.phases.begin(), ev.phases.end(), Phase::capacity_probe), 0);
  EXPECT_FALSE(report_json(r, probe_host()).at("devices").at(0).as_object().contains("capacity_probe"));
}
