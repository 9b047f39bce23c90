// Reading one object of a report while decoding it (see report_reader.hpp).
#include "runner/report/report_reader.hpp"

#include <fmt/format.h>

namespace diskvet::runner::report_reader {

namespace json = boost::json;

namespace {

const char* kind_of(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null: return "null";
    case json::kind::bool_: return "a boolean";
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_: return "a number";
    case json::kind::string: return "a string";
    case json::kind::array: return "an array";
    case json::kind::object: return "an object";
  }
  return "something else";
}

}  // namespace

ObjectReader::ObjectReader(const json::value* v, std::string path, std::vector<ReportProblem>& problems)
    : path_(std::move(path)), problems_(&problems) {
  if (!v || v->is_null()) return;
  object_ = v->if_object();
  if (object_) value_ = v;
  if (!object_) problems_->push_back({ReportProblem::Kind::wrong_type, path_, fmt::format("expected an object, found {}", kind_of(*v))});
}

ObjectReader::ObjectReader(ObjectReader&& o) noexcept
    : value_(o.value_), object_(o.object_), path_(std::move(o.path_)), problems_(o.problems_), seen_(std::move(o.seen_)), open_(o.open_) {
  o.object_ = nullptr;  // the moved-from reader lists nothing
}

ObjectReader::~ObjectReader() {
  if (!object_ || open_) return;
  for (const auto& kv : *object_)
    if (!seen_.contains(std::string_view(kv.key()))) problems_->push_back({ReportProblem::Kind::unknown_key, child(kv.key()), "not a key this diskvet knows"});
}

void ObjectReader::problem(ReportProblem::Kind kind, std::string_view key, std::string detail) {
  problems_->push_back({kind, child(key), std::move(detail)});
}

void ObjectReader::wrong_type(std::string_view key, const char* expected, const json::value& found) {
  problem(ReportProblem::Kind::wrong_type, key, fmt::format("expected {}, found {}", expected, kind_of(found)));
}

const json::value* ObjectReader::take(std::string_view key, Need need) {
  if (!object_) return nullptr;
  seen_.emplace(key);
  const json::value* v = object_->if_contains(key);
  if (v && !v->is_null()) return v;
  if (need == Need::required) problem(ReportProblem::Kind::missing, key, v ? "null where a value is required" : "required, not in the report");
  return nullptr;
}

bool ObjectReader::has(std::string_view key) {
  if (!object_) return false;
  seen_.emplace(key);
  return object_->contains(key);
}

void ObjectReader::written(std::initializer_list<std::string_view> keys) {
  for (auto k : keys) seen_.emplace(k);
}

std::optional<double> ObjectReader::number(std::string_view key, Need need) {
  const json::value* v = take(key, need);
  if (!v) return std::nullopt;
  if (!v->is_number()) {
    wrong_type(key, "a number", *v);
    return std::nullopt;
  }
  return v->to_number<double>();
}

std::optional<uint64_t> ObjectReader::size(std::string_view key, Need need) {
  const std::optional<double> x = number(key, need);
  if (!x) return std::nullopt;
  // Casting a negative, huge or NaN double to an integer is undefined, and a report read back is
  // outside input (the fuzzer found it).
  if (!(*x >= 0 && *x < 18446744073709551616.0)) {
    problem(ReportProblem::Kind::out_of_range, key, fmt::format("{} is no byte count", *x));
    return std::nullopt;
  }
  return static_cast<uint64_t>(*x);
}

std::optional<uint64_t> ObjectReader::whole(std::string_view key, Need need) {
  const json::value* v = take(key, need);
  if (!v) return std::nullopt;
  if (const auto* u = v->if_uint64()) return *u;
  if (const auto* i = v->if_int64(); i && *i >= 0) return static_cast<uint64_t>(*i);
  if (const auto* d = v->if_double(); d && *d >= 0 && *d < 18446744073709551616.0 && *d == static_cast<double>(static_cast<uint64_t>(*d)))
    return static_cast<uint64_t>(*d);
  if (v->is_number()) problem(ReportProblem::Kind::out_of_range, key, "not a whole number in 0..2^64");
  else wrong_type(key, "a number", *v);
  return std::nullopt;
}

std::string ObjectReader::text(std::string_view key, Need need) {
  const json::value* v = take(key, need);
  if (!v) return {};
  if (!v->is_string()) {
    wrong_type(key, "a string", *v);
    return {};
  }
  return std::string(v->get_string());
}

std::optional<bool> ObjectReader::boolean(std::string_view key, Need need) {
  const json::value* v = take(key, need);
  if (!v) return std::nullopt;
  if (!v->is_bool()) {
    wrong_type(key, "a boolean", *v);
    return std::nullopt;
  }
  return v->get_bool();
}

bool ObjectReader::flag(std::string_view key, Need need) { return boolean(key, need).value_or(false); }

const json::array* ObjectReader::array(std::string_view key, Need need) {
  const json::value* v = take(key, need);
  if (!v) return nullptr;
  if (!v->is_array()) {
    wrong_type(key, "an array", *v);
    return nullptr;
  }
  return &v->get_array();
}

std::vector<std::string> ObjectReader::texts(std::string_view key, Need need) {
  std::vector<std::string> out;
  const json::array* a = array(key, need);
  if (!a) return out;
  for (size_t i = 0; i < a->size(); ++i) {
    if ((*a)[i].is_string()) out.emplace_back((*a)[i].get_string());
    else wrong_type(fmt::format("{}[{}]", key, i), "a string", (*a)[i]);
  }
  return out;
}

std::vector<double> ObjectReader::numbers(std::string_view key, Need need) {
  std::vector<double> out;
  for (const auto& x : numbers_in_place(key, need))
    if (x) out.push_back(*x);
  return out;
}

std::vector<std::optional<double>> ObjectReader::numbers_in_place(std::string_view key, Need need) {
  std::vector<std::optional<double>> out;
  const json::array* a = array(key, need);
  if (!a) return out;
  for (size_t i = 0; i < a->size(); ++i) {
    if ((*a)[i].is_number()) {
      out.emplace_back((*a)[i].to_number<double>());
      continue;
    }
    out.emplace_back(std::nullopt);
    wrong_type(fmt::format("{}[{}]", key, i), "a number", (*a)[i]);
  }
  return out;
}

ObjectReader ObjectReader::object(std::string_view key, Need need) {
  return ObjectReader(take(key, need), child(key), *problems_);
}

const json::object* ObjectReader::map(std::string_view key, Need need) {
  const json::value* v = take(key, need);
  if (!v) return nullptr;
  if (!v->is_object()) {
    wrong_type(key, "an object", *v);
    return nullptr;
  }
  return &v->get_object();
}

}  // namespace diskvet::runner::report_reader
