// The suites the suite screen offers: shipped suites with whether they write and how long they take.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "suites/suite.hpp"
#include "tui/model.hpp"

namespace diskvet::tui {

// A rough time per device: windows and ramps (times sweep steps), warmups, capped preconditioning,
// the minimum steady-state rounds. `duration_s` overrides each window, as run --duration does.
double estimate_s(const suites::Suite& s, std::optional<double> duration_s);
SuiteChoice choice_of(const suites::Suite& s, std::optional<double> duration_s);
Result<std::vector<SuiteChoice>> shipped_suites(std::optional<double> duration_s);

}  // namespace diskvet::tui
