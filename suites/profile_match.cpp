// --profile auto: match a device to a shipped profile by model and capacity.
#include "suites/profile_match.hpp"

#include <fmt/format.h>

#include <regex>

#include "common/units.hpp"

namespace diskvet::suites {

std::optional<Profile> match_profile(const devices::Device& d, const std::vector<Profile>& profiles, std::string& reason) {
  for (const auto& p : profiles) {
    if (p.template_only) continue;
    if (p.match.model_regex.empty() && p.match.min_bytes == 0 && p.match.max_bytes == 0) continue;  // matches everything: not auto
    if (!p.match.model_regex.empty() && !std::regex_match(d.model, std::regex(p.match.model_regex))) continue;
    if (d.size_bytes < p.match.min_bytes) continue;
    if (p.match.max_bytes && d.size_bytes > p.match.max_bytes) continue;
    reason = fmt::format("matched by model '{}' and size {} (profile {})", d.model, format_bytes(d.size_bytes), p.file);
    return p;
  }
  reason = fmt::format("no shipped profile matches model '{}' of {}; verdicts need --profile NAME|FILE", d.model.empty() ? "(unknown)" : d.model,
                       format_bytes(d.size_bytes));
  return std::nullopt;
}

}  // namespace diskvet::runner
