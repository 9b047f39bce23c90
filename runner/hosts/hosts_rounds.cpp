// Steady-state rounds on merged numbers.
#include "runner/hosts/hosts_rounds.hpp"

#include <fmt/format.h>

#include "runner/hosts/hosts_verdicts.hpp"

namespace diskvet::runner {

namespace json = boost::json;

namespace {

json::object criteria_json(const SteadyCriteria& c) {
  return {{"window_rounds", c.window_rounds}, {"max_rounds", c.max_rounds}, {"max_excursion_pct", c.max_excursion_pct}, {"max_slope_pct", c.max_slope_pct}};
}

json::object window_json(const WindowAssessment& w) {
  return {{"first_round", w.first_round},           {"rounds", w.rounds},     {"mean", w.mean},
          {"min", w.min},                           {"max", w.max},           {"excursion_pct", w.excursion_pct},
          {"slope_per_round", w.slope_per_round},   {"slope_change_pct", w.slope_change_pct}, {"steady", w.steady}};
}

}  // namespace

bool HostsRounds::add_round(const HostsWorkloadResult& workload) {
  if (!workload.merged || workload.error) failed_ = true;
  const MergedDirection total = failed_ ? MergedDirection{} : merged_total(*workload.merged);
  const double iops = total.iops;
  const double lat_us = total.lat_mean_ns / 1e3;
  iops_.push_back(iops);
  lat_mean_us_.push_back(lat_us);
  tracked_.push_back(track_latency_ ? lat_us : iops);
  result_ = detect_steady_state(tracked_, criteria_);
  return !failed_ && !result_->attained && tracked_.size() < criteria_.max_rounds;
}

std::string HostsRounds::not_judged_reason() const {
  if (attained() || !required_) return {};
  if (failed_) return fmt::format("steady state was not attained: round {} gave no merged numbers", rounds());
  return fmt::format("steady state was not attained in {} rounds", rounds());
}

json::object HostsRounds::json(const std::string& workload) const {
  json::array rounds;
  for (size_t i = 0; i < iops_.size(); ++i) rounds.push_back(json::object{{"iops", iops_[i]}, {"lat_mean_us", lat_mean_us_[i]}, {"tracked", tracked_[i]}});
  json::object o{{"required", required_},
                 {"criteria", criteria_json(criteria_)},
                 {"attained", attained()},
                 {"rounds_used", result_ ? result_->rounds_used : rounds.size()},
                 {"rounds", std::move(rounds)},
                 {"window", result_ && result_->window ? json::value(window_json(*result_->window)) : json::value(nullptr)},
                 {"tracks", track_latency_ ? "merged mean latency (us)" : "merged IOPS"},
                 {"result", "the last round: each round is one fio run across the hosts"},
                 {"measurement_window", nullptr}};
  if (!workload.empty()) o["workload"] = workload;
  if (!attained())
    o["note"] = required_ ? "steady state not attained: no verdict on this workload can pass" : "steady state not attained (not required by the suite)";
  return o;
}

json::object hosts_matrix_json(const suites::MatrixSpec& spec, const std::vector<uint32_t>& cell_rwmixread, const std::vector<HostsWorkloadResult>& cells,
                               const std::vector<size_t>& cell_rounds, const HostsRounds& tracked, size_t rounds_run, double round_s) {
  json::array mixes, sizes, out_cells, tracked_iops;
  for (auto x : spec.rwmixread_pcts) mixes.push_back(x);
  for (auto x : spec.bs_bytes) sizes.push_back(x);
  for (double x : tracked.iops()) tracked_iops.push_back(x);
  for (size_t i = 0; i < cells.size(); ++i) {
    // The report's words (bs_bytes, error) are copied from the cell's JSON; what ran and its IOPS
    // come from the typed numbers.
    const json::object& c = cells[i].doc;
    const bool ran = cells[i].merged.has_value();
    json::object o{{"rwmixread", i < cell_rwmixread.size() ? cell_rwmixread[i] : 0},
                   {"bs", c.contains("bs_bytes") ? c.at("bs_bytes") : json::value(nullptr)},
                   {"ran", ran},
                   {"iops", ran ? json::value(merged_total_iops(cells[i])) : json::value(nullptr)},
                   {"rounds", i < cell_rounds.size() ? cell_rounds[i] : 0}};
    if (const json::value* e = c.if_contains("error")) o["error"] = *e;
    out_cells.push_back(std::move(o));
  }
  const size_t t = spec.tracked;
  json::object ss{{"required", tracked.required()},
                  {"criteria", criteria_json(tracked.criteria())},
                  {"attained", tracked.attained()},
                  {"tracked_iops", std::move(tracked_iops)},
                  {"window", tracked.result() && tracked.result()->window ? json::value(window_json(*tracked.result()->window)) : json::value(nullptr)},
                  {"measurement_window", nullptr}};
  return json::object{{"rwmixread", std::move(mixes)},
                      {"bs", std::move(sizes)},
                      {"tracked", json::object{{"rwmixread", t < cell_rwmixread.size() ? cell_rwmixread[t] : 0},
                                               {"bs", t < cells.size() && cells[t].doc.contains("bs_bytes") ? cells[t].doc.at("bs_bytes") : json::value(nullptr)}}},
                      {"round_s", round_s},
                      {"rounds_run", rounds_run},
                      {"steady_state", std::move(ss)},
                      {"cells", std::move(out_cells)},
                      {"note", "merged IOPS of each cell in the last round it ran (each round runs every cell once across the hosts; steady state "
                               "is decided on the tracked cell); cells in rw mix-major order"}};
}

}  // namespace diskvet::runner
