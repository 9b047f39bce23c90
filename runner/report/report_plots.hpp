// The plots of a report, built from its JSON (read through report_json_access, so older and partial
// reports draw what they have): latency percentiles against "nines" with the limits, IOPS and
// latency over a workload's time line (warmup, ramp, steady-state rounds, the measured window,
// slowdowns and stalls), the max-IOPS sweep as latency against IOPS with the knee, and a burn-in's
// health series.
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <utility>
#include <vector>

#include "runner/report/report_view.hpp"
#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

// `test` is the workload's test (its verdicts give the limit lines; its id finds its slowdowns and
// stalls in `device`).
Plot percentile_plot(const boost::json::value& workload, const boost::json::value& test);
// IOPS over time and latency (mean, p99) over time, on one time line.
std::pair<Plot, Plot> timeline_plots(const boost::json::value& workload, const boost::json::value& test, const boost::json::value& device);
// Nothing when the workload has no sweep.
std::optional<Plot> sweep_plot(const boost::json::value& workload);
// Nothing when the device's health was not polled or reported no temperature.
std::optional<Plot> health_plot(const boost::json::value& device);

// HdrHistogram's percentile axis: x = -log10(1 - p/100), so p90, p99, p99.9 ... sit one unit apart.
double nines(double percentile);
// percentile_points (the percentiles of a fio-style lat_ns object) is the decoder's: report_view.hpp.
// A percentile plot's x axis, its ticks from p0 to at least p99 and up to the highest x drawn.
PlotAxis nines_axis(double max_nines);

// "randread 4KiB QD32x2", with " 70% read" for a mix.
std::string workload_label(const boost::json::value& workload);

}  // namespace diskvet::runner
