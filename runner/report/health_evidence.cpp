// Health evidence lines shared by the text report and the HTML card.
#include "runner/report/health_evidence.hpp"

#include <fmt/format.h>

#include "runner/report/report_json_access.hpp"

namespace diskvet::runner {

using namespace rj;

EvidenceLines smart_counter_lines(const boost::json::value& review) {
  EvidenceLines out;
  for (const auto& f : arr(review, "findings"))
    out.emplace_back(flag(f, "fails") ? "SMART counter" : "SMART counter (INCONCLUSIVE)", str(f, "words"));
  if (out.empty() && bytes(review, "compared"))
    out.emplace_back("SMART counters", fmt::format("{} compared before and after the run, none grew", bytes(review, "compared")));
  return out;
}

}  // namespace diskvet::runner
