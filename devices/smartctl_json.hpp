// Reading `smartctl --json` documents: a member by its path, a number that may be missing.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace diskvet::devices::smartctl_json {

// The member at the path of keys; nullptr when any step is missing or not an object.
inline const boost::json::value* at(const boost::json::value& v, std::initializer_list<std::string_view> keys) {
  const boost::json::value* cur = &v;
  for (auto k : keys) {
    const boost::json::object* o = cur->if_object();
    if (!o) return nullptr;
    cur = o->if_contains(k);
    if (!cur) return nullptr;
  }
  return cur;
}

// A non-negative integer; nullopt when missing or not one.
inline std::optional<uint64_t> number(const boost::json::value* v) {
  if (!v) return std::nullopt;
  boost::system::error_code ec;
  auto n = v->to_number<uint64_t>(ec);
  if (ec) return std::nullopt;
  return n;
}

// A string member's text; empty when missing or not a string.
inline std::string text(const boost::json::value* v) { return v && v->is_string() ? std::string(v->as_string()) : std::string(); }

}  // namespace diskvet::devices::smartctl_json
