// Test files in a directory: created by us, judged on the descriptor, removed only if still ours.
#include "runner/plan/test_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "devices/file_gate.hpp"
#include "devices/file_system.hpp"

namespace diskvet::runner {

OwnedFile::~OwnedFile() {
  if (path_.empty() || keep_) return;
  struct stat there{};
  if (::lstat(path_.c_str(), &there) == 0 && there.st_dev == dev_ && there.st_ino == ino_) ::unlink(path_.c_str());
}

void OwnedFile::own(std::string path, dev_t dev, ino_t ino, bool keep) {
  path_ = std::move(path);
  dev_ = dev;
  ino_ = ino;
  keep_ = keep;
}

Result<TestFile> create_test_file(const std::string& dir, const std::string& stem, uint64_t size_bytes, bool keep, OwnedFile& owned) {
  struct stat dst{};
  if (::stat(dir.c_str(), &dst) != 0) return usage_error("--directory " + dir, "does not exist", "create it, or mount the volume there");
  if (!S_ISDIR(dst.st_mode)) return usage_error("--directory " + dir, "is not a directory", "name the directory to create the test file in");
  std::string path = fmt::format("{}/diskvet-{}-{}.img", dir.ends_with('/') ? dir.substr(0, dir.size() - 1) : dir, stem, getpid());
  // The gate creates it O_CREAT|O_EXCL|O_NOFOLLOW: anything already there (a file, a planted link) makes it fail.
  auto grant = devices::open_file_for_write(path, devices::Consent{}, size_bytes);
  if (!grant) {
    // Nothing was created: the directory named cannot hold a file of ours (/proc, /sys, a read-only
    // mount, no permission). That is the user's choice of directory, refused like a bad option (exit 2).
    Error e = grant.error();
    struct stat there{};
    if (e.kind == ErrorKind::runtime && ::lstat(path.c_str(), &there) != 0) {
      e.kind = ErrorKind::usage;
      e.fix = "nothing was written; name a writable directory on the volume to test";
    }
    return e;
  }
  if (!grant->created)
    return safety_error(path, "already exists; diskvet writes a test file in a directory only when it creates it",
                        "nothing was written; remove it or name another directory");
  struct stat mine{};
  if (::fstat(grant->fd.get(), &mine) != 0) return system_error(path, "cannot stat the file just created", errno);
  owned.own(path, mine.st_dev, mine.st_ino, keep);
  auto target = Target::lay_out(std::move(grant->fd), path, size_bytes, true, /*allow_buffered=*/true);
  if (!target) return target.error();
  TestFile t{std::move(*target), {}};
  auto fsf = devices::file_system_of_path(path);
  if (fsf) t.file_system = *fsf;
  t.file_system.direct_io = t.target.info().direct;
  return t;
}

devices::Device describe_file(const std::string& path, const TargetInfo& info) {
  devices::Device d;
  d.path = path;
  d.name = path;
  d.model = "regular file";
  d.size_bytes = info.size_bytes;
  d.logical_block_size = info.logical_block_size;
  d.physical_block_size = info.physical_block_size;
  if (auto f = devices::file_system_of_path(path)) {
    d.file_system = *f;
    d.file_system->direct_io = info.direct;
  }
  return d;
}

}  // namespace diskvet::runner
