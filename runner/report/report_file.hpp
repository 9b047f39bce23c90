// The report on disk: sealed with the sha256 of its canonical content, written to a temporary file,
// fsynced and renamed over the old one (then the directory fsynced), so a crash leaves either the
// old report or the new one, never half of either. Every file written here is a new one this
// process created; nothing is written through a link, and no device node is ever replaced.
#pragma once

#include <sys/types.h>

#include <boost/json.hpp>

#include <functional>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"

namespace diskvet::runner {

// The canonical content is the serialized document without its "sha256" member; the sealed text
// appends "sha256": hex(SHA-256(canonical)) as the last member.
std::string seal_report(boost::json::object doc);

// Checks a sealed text: true when the sha256 member matches the rest.
bool seal_matches(std::string_view text);

// Whether `path` may receive a report: nothing there yet, or a regular file (replaced), or a symlink
// (the rename replaces the link itself; whatever it points to is never opened or written). A device
// node, a directory or anything else, or a symlink to one of those, is refused (a usage error: exit
// 2, nothing written or renamed), as is a path whose directory does not exist.
Status check_report_path(const std::string& path);

// An output file claimed before anything else is done (issue 23: nothing is written to a device
// until every output that can fail has been created): check_report_path, then the temporary file,
// with a random name, created in the target's directory (O_CREAT|O_EXCL|O_NOFOLLOW, so nothing
// planted there is followed or truncated) and held open with its directory. The report is written
// later through that descriptor, fsynced, and renamed (renameat) into place. A claim never committed
// removes its temporary file, and only while that name still holds the file it created.
class ClaimedOutput;
// Claims `path` (named by `option`, e.g. "--out", in messages). Anything that keeps the file from
// being created (a missing or read-only directory, /proc, /sys, ENOTDIR, ENAMETOOLONG, no
// permission, a device node at the name) is a usage error, exit 2, naming the path and the fix.
Result<ClaimedOutput> claim_output(const std::string& path, const std::string& option = "--out");

class ClaimedOutput {
 public:
  ClaimedOutput() = default;
  ClaimedOutput(ClaimedOutput&&) noexcept = default;
  ClaimedOutput& operator=(ClaimedOutput&& o) noexcept;
  ClaimedOutput(const ClaimedOutput&) = delete;
  ClaimedOutput& operator=(const ClaimedOutput&) = delete;
  ~ClaimedOutput();

  bool valid() const { return fd_.valid(); }
  const std::string& path() const { return path_; }
  // The temporary file's name in the directory (for tests and messages).
  const std::string& temporary_name() const { return tmp_name_; }

  // Writes `text`, fsync, the path checked again, rename into place, fsync of the directory. Once:
  // the claim is spent whatever the outcome. `after_chunk` is a test seam called after each chunk
  // written (bytes so far); production callers leave it empty.
  Status commit(std::string_view text, const std::function<void(size_t)>& after_chunk = {});
  // Writes `text` now into the temporary file, ahead of what commit() writes (a log streamed while
  // the run goes on, so its memory stays bounded). A failure abandons the claim.
  Status append(std::string_view text);

 private:
  Status write_all(std::string_view text, const std::function<void(size_t)>& after_chunk);
  friend Result<ClaimedOutput> claim_output(const std::string& path, const std::string& option);
  void abandon();
  std::string path_, base_name_, tmp_name_;
  UniqueFd dir_fd_, fd_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
};

// A directory that will receive files named only at the end of the run (`run --logs DIR`): it must
// be a directory (not through a symlink at its last component) in which this process can create a
// file, checked now by creating and removing one. A usage error (exit 2, nothing written) when not.
Status check_output_dir(const std::string& dir, const std::string& option);

// Writes atomically: claim_output then commit, at once.
Status write_file_atomic(const std::string& path, std::string_view text, const std::function<void(size_t)>& after_chunk = {});

struct LoadedReport {
  boost::json::object doc;
  bool seal_ok = false;
};
// A report's text as read from `name` (used in errors only): a JSON object with this diskvet's schema.
Result<LoadedReport> parse_report(std::string_view text, const std::string& name);
Result<LoadedReport> load_report(const std::string& path);

}  // namespace diskvet::runner
