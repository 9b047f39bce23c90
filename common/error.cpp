// Formatting of user-facing errors.
#include "common/error.hpp"

#include <cstring>

namespace diskvet {

std::string Error::message() const {
  std::string out = subject.empty() ? what : subject + ": " + what;
  if (!fix.empty()) out += " (" + fix + ")";
  return out;
}

static Error make(ErrorKind kind, std::string subject, std::string what, std::string fix) {
  return Error{kind, std::move(subject), std::move(what), std::move(fix)};
}

Error usage_error(std::string s, std::string w, std::string f) { return make(ErrorKind::usage, std::move(s), std::move(w), std::move(f)); }
Error input_error(std::string s, std::string w, std::string f) { return make(ErrorKind::input, std::move(s), std::move(w), std::move(f)); }
Error safety_error(std::string s, std::string w, std::string f) { return make(ErrorKind::safety, std::move(s), std::move(w), std::move(f)); }
Error runtime_error(std::string s, std::string w, std::string f) { return make(ErrorKind::runtime, std::move(s), std::move(w), std::move(f)); }

Error system_error(std::string subject, std::string what, int err, std::string fix) {
  return make(ErrorKind::runtime, std::move(subject), std::move(what) + ": " + std::strerror(err), std::move(fix));
}

}  // namespace diskvet
