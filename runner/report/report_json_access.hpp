// Small, forgiving accessors over a loaded report: a missing or mistyped field reads as empty/zero,
// so renderers of older, partial or hand-edited reports never crash.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace diskvet::runner::rj {

inline const boost::json::value* at(const boost::json::value& v, std::string_view key) {
  const auto* o = v.if_object();
  return o ? o->if_contains(key) : nullptr;
}
inline const boost::json::value* at(const boost::json::object& o, std::string_view key) { return o.if_contains(key); }
template <typename V>
std::string str(const V& v, std::string_view key) {
  const boost::json::value* x = at(v, key);
  return x && x->is_string() ? std::string(x->get_string()) : std::string();
}
template <typename V>
double num(const V& v, std::string_view key, double dflt = 0) {
  const boost::json::value* x = at(v, key);
  return x && x->is_number() ? x->to_number<double>() : dflt;
}
// A byte count or size: a number in 0..2^64, else 0 (casting a negative, huge or NaN double to an
// integer is undefined, and a report read back is outside input: the fuzzer found it).
template <typename V>
uint64_t bytes(const V& v, std::string_view key) {
  double x = num(v, key);
  return x >= 0 && x < 18446744073709551616.0 ? static_cast<uint64_t>(x) : 0;
}
// An index into an array of `size` elements: a whole number below size, else nothing.
template <typename V>
std::optional<size_t> index_below(const V& v, std::string_view key, size_t size) {
  double x = num(v, key, -1);
  if (!(x >= 0 && x < static_cast<double>(size)) || x != static_cast<double>(static_cast<size_t>(x))) return std::nullopt;
  return static_cast<size_t>(x);
}
template <typename V>
bool is_num(const V& v, std::string_view key) {
  const boost::json::value* x = at(v, key);
  return x && x->is_number();
}
template <typename V>
bool flag(const V& v, std::string_view key) {
  const boost::json::value* x = at(v, key);
  return x && x->is_bool() && x->get_bool();
}
template <typename V>
const boost::json::array& arr(const V& v, std::string_view key) {
  static const boost::json::array empty;
  const boost::json::value* x = at(v, key);
  return x && x->is_array() ? x->get_array() : empty;
}
template <typename V>
const boost::json::value& obj(const V& v, std::string_view key) {
  static const boost::json::value empty = boost::json::object();
  const boost::json::value* x = at(v, key);
  return x && x->is_object() ? *x : empty;
}

}  // namespace diskvet::runner::rj
