// Errors as values at system boundaries: what happened, to which thing, and what to do about it.
#pragma once

#include <cerrno>
#include <string>
#include <utility>
#include <variant>

namespace diskvet {

// How the front end should react; maps onto the exit codes in DESIGN.md.
enum class ErrorKind {
  usage,    // bad option or value: exit 2
  input,    // bad file (suite, profile): exit 2
  safety,   // the protection gate refused: exit 2
  runtime,  // the system failed us mid-way: exit 3
};

struct Error {
  ErrorKind kind = ErrorKind::runtime;
  std::string subject;  // the device, file or option concerned
  std::string what;     // what happened
  std::string fix;      // what the user can do; may be empty

  // One line for a terminal: "diskvet: /dev/sda: is mounted at /boot (unmount it first)".
  std::string message() const;
  int exit_code() const { return kind == ErrorKind::runtime ? 3 : 2; }
};

Error usage_error(std::string subject, std::string what, std::string fix = {});
Error input_error(std::string subject, std::string what, std::string fix = {});
Error safety_error(std::string subject, std::string what, std::string fix = {});
Error runtime_error(std::string subject, std::string what, std::string fix = {});
// A failed syscall: `what` is followed by strerror(err).
Error system_error(std::string subject, std::string what, int err, std::string fix = {});

// Result<T>: a value or an Error (std::expected arrives with C++23).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace diskvet
