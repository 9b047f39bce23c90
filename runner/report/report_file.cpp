// Sealing, atomic writing and loading of report files.
#include "runner/report/report_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include "common/fd.hpp"
#include "common/file_kind.hpp"
#include "common/input_file.hpp"
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
    // ENOTDIR, ENAMETOOLONG, ELOOP, EACCES: the user named a path that cannot be a file: exit 2.
    if (errno != ENOENT)
      return usage_error(path, fmt::format("cannot be written: {}", std::strerror(errno)), "nothing was written; name a file in a writable directory");
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

ClaimedOutput& ClaimedOutput::operator=(ClaimedOutput&& o) noexcept {
  if (this != &o) {
    abandon();
    path_ = std::move(o.path_);
    base_name_ = std::move(o.base_name_);
    tmp_name_ = std::move(o.tmp_name_);
    dir_fd_ = std::move(o.dir_fd_);
    fd_ = std::move(o.fd_);
    dev_ = o.dev_;
    ino_ = o.ino_;
  }
  return *this;
}

ClaimedOutput::~ClaimedOutput() { abandon(); }

// Removes the temporary file, only while its name holds the file this claim created.
void ClaimedOutput::abandon() {
  if (!fd_.valid()) return;
  struct stat there{};
  if (::fstatat(dir_fd_.get(), tmp_name_.c_str(), &there, AT_SYMLINK_NOFOLLOW) == 0 && there.st_dev == dev_ && there.st_ino == ino_)
    ::unlinkat(dir_fd_.get(), tmp_name_.c_str(), 0);
  fd_.reset();
  dir_fd_.reset();
}

Result<ClaimedOutput> claim_output(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  if (auto ok = check_report_path(path); !ok) return ok.error();
  const std::string fix = fmt::format("nothing was written; give {} a file in a writable directory", option);
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  ClaimedOutput c;
  c.path_ = path;
  c.base_name_ = target.filename().string();
  c.dir_fd_.reset(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!c.dir_fd_.valid()) return usage_error(path, fmt::format("cannot be written: {}: {}", dir.string(), std::strerror(errno)), fix);
  // The temporary name stays within NAME_MAX whatever the report's own name.
  const std::string stem = c.base_name_.substr(0, 200);
  int err = 0;
  for (int attempt = 0; attempt < 8 && !c.fd_.valid(); ++attempt) {
    c.tmp_name_ = fmt::format(".{}.tmp.{}", stem, random_suffix());
    c.fd_.reset(::openat(c.dir_fd_.get(), c.tmp_name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644));
    err = errno;
    if (!c.fd_.valid() && err != EEXIST) break;
  }
  if (!c.fd_.valid()) return usage_error(path, fmt::format("cannot be created: {}", std::strerror(err)), fix);
  struct stat st{};
  if (::fstat(c.fd_.get(), &st) != 0) {
    err = errno;
    ::unlinkat(c.dir_fd_.get(), c.tmp_name_.c_str(), 0);
    c.fd_.reset();
    return usage_error(path, fmt::format("cannot be created: {}", std::strerror(err)), fix);
  }
  c.dev_ = st.st_dev;
  c.ino_ = st.st_ino;
  return c;
}

Status ClaimedOutput::write_all(std::string_view text, const std::function<void(size_t)>& after_chunk) {
  if (!fd_.valid()) return runtime_error(path_, "was not claimed, or was already written", "a bug: please report it");
  const std::string shown_tmp = (std::filesystem::path(path_).parent_path() / tmp_name_).string();
  constexpr size_t kChunk = 64 * 1024;
  size_t done = 0;
  while (done < text.size()) {
    ssize_t w = ::write(fd_.get(), text.data() + done, std::min(kChunk, text.size() - done));
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      abandon();
      return system_error(shown_tmp, "cannot write the report", e, "check free space");
    }
    done += static_cast<size_t>(w);
    if (after_chunk) after_chunk(done);
  }
  return ok_status();
}

Status ClaimedOutput::append(std::string_view text) { return write_all(text, {}); }

Status ClaimedOutput::commit(std::string_view text, const std::function<void(size_t)>& after_chunk) {
  if (auto ok = write_all(text, after_chunk); !ok) return ok;
  const std::string shown_tmp = (std::filesystem::path(path_).parent_path() / tmp_name_).string();
  if (::fsync(fd_.get()) != 0) {
    int e = errno;
    abandon();
    return system_error(shown_tmp, "cannot fsync the report", e);
  }
  // Once more just before the rename: a node put there while the run ran is not replaced, and the
  // temporary name must still be the file this claim created (nothing else is renamed into place).
  if (auto ok = check_report_path(path_); !ok) {
    abandon();
    return ok.error();
  }
  struct stat there{};
  if (::fstatat(dir_fd_.get(), tmp_name_.c_str(), &there, AT_SYMLINK_NOFOLLOW) != 0 || there.st_dev != dev_ || there.st_ino != ino_) {
    abandon();
    return runtime_error(shown_tmp, "was removed or replaced while the run went on; the report was not put in place", "see the text summary above");
  }
  if (::renameat(dir_fd_.get(), tmp_name_.c_str(), dir_fd_.get(), base_name_.c_str()) != 0) {
    int e = errno;
    abandon();
    return system_error(path_, "cannot rename the report into place", e);
  }
  ::fsync(dir_fd_.get());  // the rename itself is durable
  fd_.reset();
  dir_fd_.reset();
  return ok_status();
}

Status check_output_dir(const std::string& dir, const std::string& option) {
  const std::string fix = fmt::format("nothing was written; give {} an existing directory you can write", option);
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return usage_error(dir, fmt::format("is not a directory that can be opened: {}", std::strerror(errno)), fix);
  const std::string probe = fmt::format(".diskvet-probe.{}", random_suffix());
  UniqueFd f(::openat(fd.get(), probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644));
  if (!f.valid()) return usage_error(dir, fmt::format("cannot be written: {}", std::strerror(errno)), fix);
  ::unlinkat(fd.get(), probe.c_str(), 0);
  return ok_status();
}

Status write_file_atomic(const std::string& path, std::string_view text, const std::function<void(size_t)>& after_chunk) {
  auto claim = claim_output(path);
  if (!claim) return claim.error();
  return claim->commit(text, after_chunk);
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
  auto text = read_input_file(path);  // a FIFO or /dev/zero is refused, never waited on or read whole
  if (!text) return text.error();
  return parse_report(*text, path);
}

}  // namespace diskvet::runner
