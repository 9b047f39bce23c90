// --profile auto: match a device to a shipped profile by model and capacity.
#include "suites/profile_match.hpp"

#include <fmt/format.h>

#include <regex>

#include "common/units.hpp"
#include "suites/cloud_identity.hpp"

namespace diskvet::suites {

namespace {

// The family's profile for this device, with its notes in the description and the reason.
Result<Profile> cloud_profile_for(const ProfileArgs& args, const devices::Device& d, std::string& reason) {
  auto spec = cloud_spec(args, d.size_bytes);
  if (!spec) return spec.error();
  Profile p = cloud_profile(*spec);
  for (const auto& n : spec->notes) p.description += "; " + n;
  if (spec->burst_iops)
    p.description += fmt::format("; bursts to {:g} IOPS{} for up to {:g} min on credits ({}): the limits are the baseline, and a run "
                                 "shorter than the burst may measure the burst",
                                 *spec->burst_iops, spec->burst_mbps ? fmt::format(" and {:g} MB/s", *spec->burst_mbps) : "",
                                 spec->burst_s.value_or(0) / 60, spec->burst_source);
  reason = spec->title;
  return p;
}

}  // namespace

Result<Profile> resolve_profile_for(const std::string& text, const devices::Device& d, std::string& reason) {
  auto args = parse_profile_args(text);
  if (!args) return args.error();
  if (is_cloud_family(args->name)) {
    std::string title;
    auto p = cloud_profile_for(*args, d, title);
    if (!p) return p.error();
    reason = fmt::format("named on the command line: {} ({})", title, text);
    return p;
  }
  if (!args->params.empty()) return usage_error("--profile " + text, fmt::format("'{}' takes no parameters", args->name), "only cloud families do");
  auto p = resolve_profile(text);
  if (!p) return p.error();
  reason = "named on the command line (" + p->file + ")";
  return p;
}

std::optional<Profile> match_profile(const devices::Device& d, const std::vector<Profile>& profiles, std::string& reason) {
  if (auto cloud = identify_cloud(d); cloud.provider != CloudProvider::none) {
    if (!cloud.profile) {
      reason = cloud.reason;
      return std::nullopt;
    }
    std::string title;
    auto p = cloud_profile_for(*cloud.profile, d, title);
    if (!p) {
      reason = cloud.reason + "; but: " + p.error().message();
      return std::nullopt;
    }
    reason = fmt::format("{}: {}", title, cloud.reason);
    return *p;
  }
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
