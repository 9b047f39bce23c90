// Input files: opened without blocking, judged on the descriptor, read with a cap.
#include "common/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "common/file_kind.hpp"
#include "common/units.hpp"

namespace diskvet {

Result<UniqueFd> open_input_file(const std::string& path) {
  if (path.empty()) return input_error("\"\"", "is not a file name", "name a file");
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!fd.valid()) {
    const int e = errno;
    if (e == ENOENT) return input_error(path, "does not exist", "check the path");
    return input_error(path, fmt::format("cannot be opened: {}", std::strerror(e)), "check the path and its permissions");
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0) return input_error(path, fmt::format("cannot be examined: {}", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) return input_error(path, fmt::format("is {}; diskvet reads this input from a regular file", file_kind(st.st_mode)), "name a regular file");
  return fd;
}

Result<std::string> read_input_file(const std::string& path, uint64_t max_bytes) {
  auto fd = open_input_file(path);
  if (!fd) return fd.error();
  auto too_big = [&] {
    return input_error(path, fmt::format("is larger than {}; this is not an input diskvet reads", format_bytes(max_bytes)), "name the right file");
  };
  struct stat st{};
  if (::fstat(fd->get(), &st) == 0 && static_cast<uint64_t>(st.st_size) > max_bytes) return too_big();
  std::string text;
  text.reserve(static_cast<size_t>(st.st_size));
  char buf[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd->get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return input_error(path, fmt::format("cannot be read: {}", std::strerror(errno)), "check the file");
    }
    if (n == 0) break;
    if (text.size() + static_cast<uint64_t>(n) > max_bytes) return too_big();
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

}  // namespace diskvet
