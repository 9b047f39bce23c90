// Sealing, atomic writing and loading of report files.
#include "runner/report/report_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "common/fd.hpp"
#include "common/file_kind.hpp"
#include "devices/file_gate.hpp"
#include "runner/report/report_json.hpp"
#include "runner/report/sha256.hpp"

namespace diskvet::runner {

namespace json = boost::json;

namespace {
constexpr std::string_view kSealKey = ",\"sha256\":\"";
constexpr size_t kSealLength = kSealKey.size() + 64 + 2;  // ,"sha256":"<64 hex>"}
}  // namespace

std::string seal_report(json::object doc) {
  doc.erase("sha256");
  std::string canonical = json::serialize(doc);
  std::string hex = sha256_hex(canonical);
  canonical.pop_back();  // the closing brace
  return canonical + std::string(kSealKey) + hex + "\"}";
}

bool seal_matches(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  if (text.size() < kSealLength + 2) return false;
  std::string_view tail = text.substr(text.size() - kSealLength);
  if (!tail.starts_with(kSealKey) || !tail.ends_with("\"}")) return false;
  std::string hex(tail.substr(kSealKey.size(), 64));
  std::string canonical(text.substr(0, text.size() - kSealLength));
  canonical += "}";
  return sha256_hex(canonical) == hex;
}

namespace {

// A name nobody can predict: 16 hex digits from the kernel's random source.
std::string random_suffix() {
  uint64_t r = 0;
  if (::getrandom(&r, sizeof r, 0) != static_cast<ssize_t>(sizeof r)) {
    std::random_device rd;
    r = (uint64_t{rd()} << 32) ^ rd();
  }
  return fmt::format("{:016x}", r);
}

}  // namespace

Status check_report_path(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return usage_error("--out", "is empty", "name a report file, e.g. report.json");
  fs::path target(path);
  if (!target.has_filename()) return usage_error(path, "names a directory; a report is a file", "name a file in it, e.g. report.json");
  struct stat lst{};
  if (::lstat(path.c_str(), &lst) != 0) {
    if (errno != ENOENT) return system_error(path, "cannot be examined", errno);
    fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat dst{};
    if (::stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode))
      return usage_error(path, fmt::format("cannot be written: {} is not a directory", dir.string()), "create the directory first");
    return ok_status();
  }
  // An older report, or a file the user named: replaced, unless that inode is a disk in disguise.
  if (S_ISREG(lst.st_mode)) return devices::check_replaceable(path);
  if (S_ISLNK(lst.st_mode)) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return ok_status();  // the link is replaced, its target untouched
    return usage_error(path, fmt::format("is a symbolic link to {}; a report is written to a regular file, refusing", file_kind(st.st_mode)),
                       "nothing was written; name a new file, e.g. report.json");
  }
  return usage_error(path, fmt::format("is {}; a report is written to a regular file, refusing", file_kind(lst.st_mode)),
                     "nothing was written; name a new file, e.g. report.json");
}

Status write_file_atomic(const std::string& path, std::string_view text, const std::function<void(size_t)>& after_chunk) {
  namespace fs = std::filesystem;
  if (auto ok = check_report_path(path); !ok) return ok.error();
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::path tmp;
  UniqueFd fd;
  for (int attempt = 0; attempt < 8 && !fd.valid(); ++attempt) {
    tmp = dir / fmt::format(".{}.tmp.{}", target.filename().string(), random_suffix());
    fd.reset(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644));
    if (!fd.valid() && errno != EEXIST) break;
  }
  if (!fd.valid()) return system_error(tmp.string(), "cannot create the temporary report file", errno, "check that the directory is writable");
  constexpr size_t kChunk = 64 * 1024;
  size_t done = 0;
  while (done < text.size()) {
    ssize_t w = ::write(fd.get(), text.data() + done, std::min(kChunk, text.size() - done));
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::unlink(tmp.c_str());
      return system_error(tmp.string(), "cannot write the report", e, "check free space");
    }
    done += static_cast<size_t>(w);
    if (after_chunk) after_chunk(done);
  }
  if (::fsync(fd.get()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return system_error(tmp.string(), "cannot fsync the report", e);
  }
  fd.reset();
  // Once more just before the rename: a node put there while the report was written is not replaced.
  if (auto ok = check_report_path(path); !ok) {
    ::unlink(tmp.c_str());
    return ok.error();
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return system_error(path, "cannot rename the report into place", e);
  }
  UniqueFd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd.valid()) ::fsync(dfd.get());  // the rename itself is durable
  return ok_status();
}

Result<LoadedReport> parse_report(std::string_view text, const std::string& path) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return input_error(path, "is not a diskvet report (not a JSON object)" + (ec ? ": " + ec.message() : std::string()));
  const json::object& o = v.get_object();
  const auto version = report_schema_version(o);
  if (!version) return input_error(path, "has no \"schema\": \"diskvet-report/N\"", "is this a diskvet report?");
  if (*version > kReportSchemaVersion)
    return input_error(path, fmt::format("has schema diskvet-report/{}, newer than this diskvet reads (diskvet-report/{} to /{})", *version,
                                         kOldestReportSchemaVersion, kReportSchemaVersion),
                       "use the diskvet version that wrote it, or a newer one");
  return LoadedReport{o, seal_matches(text)};
}

Result<LoadedReport> load_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return input_error(path, "cannot be read", "check the path");
  std::ostringstream s;
  s << in.rdbuf();
  return parse_report(s.str(), path);
}

}  // namespace diskvet::runner
