// The plots of a report, built from the decoded report (report_view.hpp: older and partial reports
// draw what they have): latency percentiles against "nines" with the limits, IOPS and
// latency over a workload's time line (warmup, ramp, steady-state rounds, the measured window,
// slowdowns and stalls), the max-IOPS sweep as latency against IOPS with the knee, and a burn-in's
// health series.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "runner/report/report_view.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

// `test` is the workload's test (its verdicts give the limit lines; its id finds its slowdowns and
// stalls in `device`).
Plot percentile_plot(const WorkloadView& workload, const TestView& test);
// IOPS over time and latency (mean, p99) over time, on one time line.
std::pair<Plot, Plot> timeline_plots(const WorkloadView& workload, const TestView& test, const DeviceView& device);
// Nothing when the workload has no sweep.
std::optional<Plot> sweep_plot(const WorkloadView& workload);
// Nothing when the device's health was not polled or reported no temperature.
std::optional<Plot> health_plot(const DeviceView& device);

// HdrHistogram's percentile axis: x = -log10(1 - p/100), so p90, p99, p99.9 ... sit one unit apart.
double nines(double percentile);
// A percentile plot's x axis, its ticks from p0 to at least p99 and up to the highest x drawn.
PlotAxis nines_axis(double max_nines);

// "randread 4KiB QD32x2", with " 70% read" for a mix.
std::string workload_label(const WorkloadView& workload);

}  // namespace diskvet::runner
