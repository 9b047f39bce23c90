// A strict reader over a JSON object from a suite or profile file: every key must be known, every
// value of the right type and range; the first problem becomes an input error naming file, key, reason.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "common/error.hpp"

namespace diskvet::suites {

class StrictReader {
 public:
  // `where` is the key path of this object inside the file ("tests[1]"), empty at the top.
  StrictReader(const boost::json::value& v, std::string file, std::string where, std::optional<Error>* error);
  StrictReader(const boost::json::object& o, std::string file, std::string where, std::optional<Error>* error);

  bool ok() const { return !error_->has_value(); }
  bool has(std::string_view key) const;
  std::string path(std::string_view key) const;  // "tests[1].workloads[0].bs"
  const std::string& file() const { return file_; }

  // Each getter marks the key as known; `out` keeps its default when the key is absent.
  void string(std::string_view key, std::string& out, bool required = false);
  void boolean(std::string_view key, bool& out);
  // Whole numbers in [lo, hi].
  void uint(std::string_view key, uint64_t& out, uint64_t lo, uint64_t hi);
  void uint32(std::string_view key, uint32_t& out, uint32_t lo, uint32_t hi);
  // Finite numbers in [lo, hi].
  void number(std::string_view key, double& out, double lo, double hi);
  // A size: a whole number of bytes or a string in fio's units ("4k", "1g").
  void size(std::string_view key, uint64_t& out, uint64_t lo, uint64_t hi);
  // A duration: seconds as a number or a string ("5s", "2m").
  void duration(std::string_view key, double& out, double lo_s, double hi_s);
  // The nested object or array under key, or nullptr (wrong type is reported).
  const boost::json::object* object(std::string_view key, bool required = false);
  const boost::json::array* array(std::string_view key, bool required = false);
  // The raw value under key (marked known), or nullptr: for keys of more than one type.
  const boost::json::value* value(std::string_view key) { return get(key); }
  // Marks a key known without reading it (handled by the caller).
  void known(std::string_view key) { known_.insert(std::string(key)); }

  // Records an error about `key` (first error wins).
  void fail(std::string_view key, std::string reason, std::string fix = {});
  // Reports the first key that no getter asked for.
  void finish();

 private:
  const boost::json::value* get(std::string_view key);
  const boost::json::object* obj_ = nullptr;
  std::string file_, where_;
  std::optional<Error>* error_;
  std::set<std::string> known_;
};

// Parses text as JSON; a syntax error or a key given twice in one object names the file and the line.
Result<boost::json::value> parse_json_text(std::string_view text, const std::string& file);
// The duplicate-key check alone (valid JSON assumed): input error naming the key and the line.
Status check_duplicate_keys(std::string_view text, const std::string& file);
// Reads a whole file (suite, profile, inventory) as common/input_file does: regular files only, capped.
Result<std::string> read_text_file(const std::string& path);

}  // namespace diskvet::suites
