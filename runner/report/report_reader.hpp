// Reading one object of a report while decoding it (report_view*.cpp, the only users): each getter
// names its key once, returns the value or the default of "not recorded", and lists what does not
// fit: a required key that is missing, a value of the wrong type, a number out of range. Every key
// read or declared written (`written`) is known; when the reader goes out of scope any other key of
// the object is listed as unknown, unless the object is open (fio's job object: fio's vocabulary).
// An absent object (missing, null, or of the wrong type, which is listed) reads as all defaults and
// lists nothing more, so one missing section is one problem, not one per member.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runner/report/report_view.hpp"

namespace diskvet::runner::report_reader {

enum class Need { optional, required };

class ObjectReader {
 public:
  // `v` may be nullptr (absent); null reads as absent; anything else but an object is a wrong type.
  ObjectReader(const boost::json::value* v, std::string path, std::vector<ReportProblem>& problems);
  ObjectReader(const ObjectReader&) = delete;
  ObjectReader& operator=(const ObjectReader&) = delete;
  ObjectReader(ObjectReader&&) noexcept;
  ObjectReader& operator=(ObjectReader&&) = delete;
  ~ObjectReader();

  bool present() const { return object_ != nullptr; }
  bool empty() const { return !object_ || object_->empty(); }
  const std::string& path() const { return path_; }

  std::optional<double> number(std::string_view key, Need need = Need::optional);
  // A byte count or size: a number in 0..2^64 (a negative, huge or NaN one is out of range).
  std::optional<uint64_t> size(std::string_view key, Need need = Need::optional);
  // A whole number in 0..2^64, exactly (a seed: a double would round it).
  std::optional<uint64_t> whole(std::string_view key, Need need = Need::optional);
  std::string text(std::string_view key, Need need = Need::optional);
  bool flag(std::string_view key, Need need = Need::optional);  // true only when recorded true
  std::optional<bool> boolean(std::string_view key, Need need = Need::optional);
  // An array of strings; an entry that is not one is listed and left out.
  std::vector<std::string> texts(std::string_view key, Need need = Need::optional);
  // An array of numbers; an entry that is not one is listed and left out (or kept as nullopt).
  std::vector<double> numbers(std::string_view key, Need need = Need::optional);
  std::vector<std::optional<double>> numbers_in_place(std::string_view key, Need need = Need::optional);
  ObjectReader object(std::string_view key, Need need = Need::optional);
  // An array of objects, each read by `decode(ObjectReader&)`; an entry that is not an object is
  // listed and read as absent (all defaults), so it keeps its place.
  template <typename T, typename F>
  std::vector<T> list(std::string_view key, F&& decode, Need need = Need::optional) {
    std::vector<T> out;
    const boost::json::array* a = array(key, need);
    if (!a) return out;
    out.reserve(a->size());
    for (size_t i = 0; i < a->size(); ++i) {
      ObjectReader el(&(*a)[i], child(key) + "[" + std::to_string(i) + "]", *problems_);
      out.push_back(decode(el));
    }
    return out;
  }
  // The object at key decoded by `decode(ObjectReader&)`, or nothing when it is absent or null
  // (decode may return an optional too: nothing for an object that records nothing).
  template <typename T, typename F>
  std::optional<T> recorded(std::string_view key, F&& decode, Need need = Need::optional) {
    ObjectReader r = object(key, need);
    if (!r.present()) return std::nullopt;
    return std::optional<T>(decode(r));
  }
  // An object whose keys are data (lat_ns.percentile): read as it is.
  const boost::json::object* map(std::string_view key, Need need = Need::optional);
  // The object itself (nullptr when absent), for a reading that takes the whole of it.
  const boost::json::value* raw() const { return value_; }
  // Whether the key is there at all (any value, null included).
  bool has(std::string_view key);

  // Keys the writer writes that the view does not hold: known, not read.
  void written(std::initializer_list<std::string_view> keys);
  // Any key is known (an object in another tool's vocabulary).
  void open() { open_ = true; }
  // A value read that does not fit what the decoder checks beyond its type.
  void problem(ReportProblem::Kind kind, std::string_view key, std::string detail);

 private:
  std::string child(std::string_view key) const { return path_.empty() ? std::string(key) : path_ + "." + std::string(key); }
  const boost::json::value* take(std::string_view key, Need need);
  const boost::json::array* array(std::string_view key, Need need);
  void wrong_type(std::string_view key, const char* expected, const boost::json::value& found);

  const boost::json::value* value_ = nullptr;
  const boost::json::object* object_ = nullptr;
  std::string path_;
  std::vector<ReportProblem>* problems_;
  std::set<std::string, std::less<>> seen_;
  bool open_ = false;
};

// The decoder's parts, each reading one section of a device (report_view_health.cpp,
// report_view_workload.cpp) or a multi-host report (report_view_hosts.cpp); report_view.cpp reads
// the rest and calls them.
HealthView read_health(ObjectReader& health);
SelfTestView read_self_test(ObjectReader& self_test);
VerifyView read_verify(ObjectReader& verify);
WorkloadView read_workload(ObjectReader& workload);
VerdictView read_verdict(ObjectReader& verdict);
// A multi-host report's top object (report_view_hosts.cpp): the run's members of `v`, and its hosts
// and tests as v.multi_host.
void read_multi_host(ObjectReader& report, ReportView& v, std::vector<ReportProblem>& problems);
MatrixView read_matrix(ObjectReader& matrix);
// One entry of a report's phases_not_run (a device's, or a multi-host run's).
PhaseNotRunView read_phase_not_run(ObjectReader& entry);

}  // namespace diskvet::runner::report_reader
