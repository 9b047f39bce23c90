// Reading the hosts' JSON (fio's output and the run's own workload objects) where a key may be
// missing or of another type: nullptr or 0, never an exception.
#pragma once

#include <boost/json.hpp>

#include <string_view>

namespace diskvet::runner::json_read {

inline const boost::json::object* obj(const boost::json::object& o, std::string_view k) {
  const boost::json::value* v = o.if_contains(k);
  return v ? v->if_object() : nullptr;
}

inline double number(const boost::json::object* o, std::string_view k) {
  const boost::json::value* v = o ? o->if_contains(k) : nullptr;
  return v && v->is_number() ? v->to_number<double>() : 0;
}

}  // namespace diskvet::runner::json_read
