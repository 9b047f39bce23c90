// Health evidence lines shared by the text report and the HTML card.
#include "runner/report/health_evidence.hpp"

#include <fmt/format.h>

#include <cctype>

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

EvidenceLines self_test_lines(const boost::json::value& self_test) {
  EvidenceLines out;
  for (const char* when : {"before", "after"}) {
    const boost::json::value& st = obj(self_test, when);
    if (str(st, "result").empty()) continue;  // not asked for
    std::string result = str(st, "result");
    for (auto& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (result == "NOT-SUPPORTED") result = "NOT SUPPORTED (not counted as passed)";
    out.emplace_back(fmt::format("self-test {} ({})", when, str(st, "type")), fmt::format("{}: {}", result, str(st, "words")));
  }
  return out;
}

}  // namespace diskvet::runner
