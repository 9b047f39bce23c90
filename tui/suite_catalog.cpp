// Suite choices from the shipped suites.
#include "tui/suite_catalog.hpp"

namespace diskvet::tui {

double estimate_s(const suites::Suite& s, std::optional<double> duration_s) {
  double total = 0;
  if (s.precondition.enabled) total += s.precondition.limit_s;
  for (const auto& t : s.tests) {
    const double steps = t.sweep ? static_cast<double>(t.sweep->steps.size()) : 1.0;
    for (const auto& w : t.workloads) {
      const double window = duration_s.value_or(w.runtime_s) + w.ramp_s;
      total += window * steps;
      if (s.warmup.enabled && runner::reads(w.rw)) total += s.warmup.max_s;
      if (s.steady_state.enabled) total += static_cast<double>(s.steady_state.criteria.window_rounds) * duration_s.value_or(s.steady_state.round_s);
    }
  }
  return total;
}

SuiteChoice choice_of(const suites::Suite& s, std::optional<double> duration_s) {
  return SuiteChoice{s.name, s.placeholder ? s.placeholder_note : s.description, s.placeholder, suites::suite_writes(s), estimate_s(s, duration_s)};
}

Result<std::vector<SuiteChoice>> shipped_suites(std::optional<double> duration_s) {
  std::vector<SuiteChoice> out;
  for (const auto& name : suites::builtin_suite_names()) {
    auto s = suites::builtin_suite(name);
    if (!s) return s.error();
    out.push_back(choice_of(*s, duration_s));
  }
  return out;
}

}  // namespace diskvet::tui
