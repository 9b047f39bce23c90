// Versions of the report document (see report_schema.hpp).
#include "runner/report/report_schema.hpp"

#include <fmt/format.h>

#include <charconv>

namespace diskvet::runner {

bool is_multi_host_report(const boost::json::object& doc) {
  const auto* k = doc.if_contains("kind");
  return k && k->is_string() && k->get_string() == kHostsReportKind;
}

std::optional<int> report_schema_version(const boost::json::object& doc) {
  const auto* s = doc.if_contains("schema");
  if (!s || !s->is_string()) return std::nullopt;
  std::string_view text = s->get_string();
  constexpr std::string_view prefix = "diskvet-report/";
  if (!text.starts_with(prefix)) return std::nullopt;
  text.remove_prefix(prefix.size());
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 1) return std::nullopt;
  return n;
}

std::optional<std::string> schema_note(const boost::json::value& doc) {
  const auto* o = doc.if_object();
  const auto v = o ? report_schema_version(*o) : std::nullopt;
  if (!v || *v >= kReportSchemaVersion) return std::nullopt;
  return fmt::format("Written by an earlier diskvet (schema diskvet-report/{}): it does not record where the profile's limits come from.", *v);
}

}  // namespace diskvet::runner
