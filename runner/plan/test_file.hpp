// A test file of diskvet's own in a directory on a mounted volume (`--directory DIR`, fio's
// --directory, DiskSpd's -c): created O_EXCL without following a link, filled so reads touch the
// medium, O_DIRECT where the file system allows it, removed at the end unless --keep-file.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "devices/device.hpp"
#include "runner/io/target.hpp"

namespace diskvet::runner {

// Removes the file this process created when it goes out of scope, and only that file: when the
// name no longer points at the inode created (renamed, replaced), nothing is removed.
class OwnedFile {
 public:
  OwnedFile() = default;
  OwnedFile(const OwnedFile&) = delete;
  OwnedFile& operator=(const OwnedFile&) = delete;
  // Moved from: the new owner removes it, the old one forgets it.
  OwnedFile(OwnedFile&& o) noexcept : path_(std::exchange(o.path_, {})), dev_(o.dev_), ino_(o.ino_), keep_(o.keep_) {}
  OwnedFile& operator=(OwnedFile&&) = delete;
  ~OwnedFile();
  void own(std::string path, dev_t dev, ino_t ino, bool keep);
  const std::string& path() const { return path_; }
  bool kept() const { return keep_; }
  // Whether the file stays afterwards; a run refused before it starts leaves it false (removed).
  void keep(bool keep) { keep_ = keep; }

 private:
  std::string path_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  bool keep_ = false;
};

struct TestFile {
  Target target;
  devices::FileSystemFacts file_system;  // direct_io says whether O_DIRECT was allowed
};

// Creates DIR/diskvet-<stem>-<pid>.img of size_bytes (DIR must be an existing directory), fills it,
// and opens it as a Target (writable). `owned` removes it afterwards unless keep.
Result<TestFile> create_test_file(const std::string& dir, const std::string& stem, uint64_t size_bytes, bool keep, OwnedFile& owned);

// The device value a file target is reported as: "regular file", its size, and its file system.
devices::Device describe_file(const std::string& path, const TargetInfo& info);

}  // namespace diskvet::runner
