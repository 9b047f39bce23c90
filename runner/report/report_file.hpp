// The report on disk: sealed with the sha256 of its canonical content, written to a temporary file,
// fsynced and renamed over the old one (then the directory fsynced), so a crash leaves either the
// old report or the new one, never half of either. Every file written here is a new one this
// process created; nothing is written through a link, and no device node is ever replaced.
#pragma once

#include <boost/json.hpp>

#include <functional>
#include <string>

#include "common/error.hpp"

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

// Writes atomically: check_report_path, then a temporary file with a random name beside the target
// (O_CREAT|O_EXCL|O_NOFOLLOW, so nothing planted there is followed or truncated), fsync, the check
// again, rename, fsync of the directory. `after_chunk` is a test seam called after each chunk
// written to the temporary file (bytes so far); production callers leave it empty.
Status write_file_atomic(const std::string& path, std::string_view text, const std::function<void(size_t)>& after_chunk = {});

struct LoadedReport {
  boost::json::object doc;
  bool seal_ok = false;
};
// A report's text as read from `name` (used in errors only): a JSON object with this diskvet's schema.
Result<LoadedReport> parse_report(std::string_view text, const std::string& name);
Result<LoadedReport> load_report(const std::string& path);

}  // namespace diskvet::runner
