// Strict reading of suite and profile files.
#include "suites/strict_reader.hpp"

#include <fmt/format.h>

#include <boost/json/basic_parser_impl.hpp>
#include <cmath>
#include <vector>

#include "common/input_file.hpp"
#include "common/units.hpp"

namespace diskvet::suites {

namespace json = boost::json;

StrictReader::StrictReader(const json::value& v, std::string file, std::string where, std::optional<Error>* error)
    : file_(std::move(file)), where_(std::move(where)), error_(error) {
  obj_ = v.if_object();
  if (!obj_) fail("", "must be a JSON object");
}

StrictReader::StrictReader(const json::object& o, std::string file, std::string where, std::optional<Error>* error)
    : obj_(&o), file_(std::move(file)), where_(std::move(where)), error_(error) {}

bool StrictReader::has(std::string_view key) const { return obj_ && obj_->contains(key); }

std::string StrictReader::path(std::string_view key) const {
  if (where_.empty()) return std::string(key.empty() ? "(top level)" : key);
  return key.empty() ? where_ : fmt::format("{}.{}", where_, key);
}

void StrictReader::fail(std::string_view key, std::string reason, std::string fix) {
  if (error_->has_value()) return;
  *error_ = input_error(fmt::format("{}: {}", file_, path(key)), std::move(reason), std::move(fix));
}

const json::value* StrictReader::get(std::string_view key) {
  known_.insert(std::string(key));
  if (!obj_ || !ok()) return nullptr;
  auto it = obj_->find(key);
  return it == obj_->end() ? nullptr : &it->value();
}

void StrictReader::string(std::string_view key, std::string& out, bool required) {
  const json::value* v = get(key);
  if (!v) {
    if (required && obj_) fail(key, "is required");
    return;
  }
  if (!v->is_string()) return fail(key, "must be a string");
  out = std::string(v->get_string());
}

void StrictReader::boolean(std::string_view key, bool& out) {
  const json::value* v = get(key);
  if (!v) return;
  if (!v->is_bool()) return fail(key, "must be true or false");
  out = v->get_bool();
}

void StrictReader::uint(std::string_view key, uint64_t& out, uint64_t lo, uint64_t hi) {
  const json::value* v = get(key);
  if (!v) return;
  uint64_t x = 0;
  if (v->is_uint64()) x = v->get_uint64();
  else if (v->is_int64() && v->get_int64() >= 0) x = static_cast<uint64_t>(v->get_int64());
  else if (v->is_int64()) return fail(key, fmt::format("{} is negative", v->get_int64()), fmt::format("use {}..{}", lo, hi));
  else return fail(key, "must be a whole number");
  if (x < lo || x > hi) return fail(key, fmt::format("{} is outside {}..{}", x, lo, hi));
  out = x;
}

void StrictReader::uint32(std::string_view key, uint32_t& out, uint32_t lo, uint32_t hi) {
  uint64_t x = out;
  uint(key, x, lo, hi);
  out = static_cast<uint32_t>(x);
}

void StrictReader::number(std::string_view key, double& out, double lo, double hi) {
  const json::value* v = get(key);
  if (!v) return;
  if (!v->is_number()) return fail(key, "must be a number");
  double x = v->to_number<double>();
  if (!std::isfinite(x) || x < lo || x > hi) return fail(key, fmt::format("{} is outside {}..{}", x, lo, hi));
  out = x;
}

void StrictReader::size(std::string_view key, uint64_t& out, uint64_t lo, uint64_t hi) {
  const json::value* v = get(key);
  if (!v) return;
  std::optional<uint64_t> x;
  if (v->is_uint64()) x = v->get_uint64();
  else if (v->is_int64() && v->get_int64() >= 0) x = static_cast<uint64_t>(v->get_int64());
  else if (v->is_string()) x = parse_size(v->get_string());
  if (!x) return fail(key, "is not a size", "use bytes or fio's units, e.g. 4096, \"4k\", \"1g\"");
  if (*x < lo || *x > hi) return fail(key, fmt::format("{} is outside {}..{}", format_bytes(*x), format_bytes(lo), format_bytes(hi)));
  out = *x;
}

void StrictReader::duration(std::string_view key, double& out, double lo_s, double hi_s) {
  const json::value* v = get(key);
  if (!v) return;
  std::optional<double> x;
  if (v->is_number()) x = v->to_number<double>();
  else if (v->is_string()) x = parse_duration_s(v->get_string());
  if (!x || !std::isfinite(*x)) return fail(key, "is not a duration", "use seconds or e.g. \"5s\", \"2m\", \"1h\"");
  if (*x < lo_s || *x > hi_s) return fail(key, fmt::format("{}s is outside {}s..{}s", *x, lo_s, hi_s));
  out = *x;
}

const json::object* StrictReader::object(std::string_view key, bool required) {
  const json::value* v = get(key);
  if (!v) {
    if (required && obj_) fail(key, "is required");
    return nullptr;
  }
  if (!v->is_object()) {
    fail(key, "must be an object");
    return nullptr;
  }
  return &v->get_object();
}

const json::array* StrictReader::array(std::string_view key, bool required) {
  const json::value* v = get(key);
  if (!v) {
    if (required && obj_) fail(key, "is required");
    return nullptr;
  }
  if (!v->is_array()) {
    fail(key, "must be an array");
    return nullptr;
  }
  return &v->get_array();
}

void StrictReader::finish() {
  if (!obj_ || !ok()) return;
  for (const auto& kv : *obj_) {
    std::string k(kv.key());
    if (!known_.count(k)) {
      std::string names;
      for (const auto& n : known_) names += (names.empty() ? "" : ", ") + n;
      return fail(k, "is not a known key", "known here: " + names);
    }
  }
}

namespace {

// A basic_parser handler that only watches keys: a key given twice in one object is remembered
// with the offset where it ends (Boost.JSON's parse would silently keep the last one).
struct DuplicateKeyFinder {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  std::vector<std::vector<std::string>> objects;  // keys seen so far in each open object
  std::string key;
  std::string duplicate;

  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  bool on_object_begin(json::error_code&) {
    objects.emplace_back();
    return true;
  }
  bool on_object_end(std::size_t, json::error_code&) {
    objects.pop_back();
    return true;
  }
  bool on_array_begin(json::error_code&) { return true; }
  bool on_array_end(std::size_t, json::error_code&) { return true; }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    key.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code& ec) {
    key.append(s.data(), s.size());
    auto& seen = objects.back();
    for (const auto& k : seen)
      if (k == key) {
        duplicate = key;
        ec = json::error::extra_data;  // stops the parser; `duplicate` says why
        return false;
      }
    seen.push_back(std::move(key));
    key.clear();
    return true;
  }
  bool on_string_part(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_string(json::string_view, std::size_t, json::error_code&) { return true; }
  bool on_number_part(json::string_view, json::error_code&) { return true; }
  bool on_int64(std::int64_t, json::string_view, json::error_code&) { return true; }
  bool on_uint64(std::uint64_t, json::string_view, json::error_code&) { return true; }
  bool on_double(double, json::string_view, json::error_code&) { return true; }
  bool on_bool(bool, json::error_code&) { return true; }
  bool on_null(json::error_code&) { return true; }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

size_t line_at(std::string_view text, size_t offset) {
  size_t line = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

}  // namespace

// A key given twice in one object is refused as an unknown key is: which of the two was meant?
Status check_duplicate_keys(std::string_view text, const std::string& file) {
  json::basic_parser<DuplicateKeyFinder> p(json::parse_options{});
  json::error_code ec;
  size_t n = p.write_some(false, text.data(), text.size(), ec);
  if (!p.handler().duplicate.empty())
    return input_error(fmt::format("{}:{}", file, line_at(text, n)), fmt::format("gives the key \"{}\" twice in one object", p.handler().duplicate),
                       "keep one of them");
  return ok_status();
}

Result<json::value> parse_json_text(std::string_view text, const std::string& file) {
  json::error_code ec;
  json::parse_options opt;
  opt.allow_comments = false;
  json::value v = json::parse(text, ec, {}, opt);
  if (ec) {
    // Boost.JSON gives no position; count the lines of the longest prefix that still parses.
    json::stream_parser p;
    size_t good = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      json::error_code e2;
      p.write(text.data() + i, 1, e2);
      if (e2) break;
      good = i + 1;
    }
    return input_error(fmt::format("{}:{}", file, line_at(text, good)), "is not valid JSON: " + ec.message(), "fix the syntax near that line");
  }
  if (auto unique = check_duplicate_keys(text, file); !unique) return unique.error();
  return v;
}

Result<std::string> read_text_file(const std::string& path) { return read_input_file(path); }

}  // namespace diskvet::suites
