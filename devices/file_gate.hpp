// The protection gate for files: a file diskvet writes as a target is judged on the descriptor it
// opened (fstat), never on a path looked up beforehand, so nothing swapped in between is written.
// A final symlink is never followed, a new file is created O_EXCL, and an existing file is someone's
// data: writing it needs consent naming it, as a disk does.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "devices/consent.hpp"
#include "devices/host_paths.hpp"
#include "devices/stack_facts.hpp"

namespace diskvet::devices {

// What was found at the path, from fstat of a descriptor opened O_PATH|O_NOFOLLOW (a symlink shows
// as a symlink) or of the file this process just created with O_CREAT|O_EXCL.
struct OpenedFile {
  mode_t mode = 0;
  bool created = false;      // created by this process a moment ago: nobody's data yet
  uint64_t size_bytes = 0;
  std::string backs_loop;    // "loop3" when it is the backing file of /dev/loop3
  bool swap = false;         // an active swap file
  FileId id;                 // (st_dev, st_ino): what consent must have resolved to
};

// The file rules, a pure function of what was opened (the path as given is for words only):
//  - anything but a regular file (symlink, block or character device, directory, FIFO, socket) is
//    refused whatever the consent: block devices reach the disk gate, never this one;
//  - a regular file backing a loop device or active as swap is a disk in disguise: refused;
//  - a file this process created is written without consent;
//  - an existing regular file is written only when a --destroy-data id resolved, before anything was
//    opened, to this very inode (f.id); all-unprotected does not cover it, and the refusal says which
//    ID to add.
Status decide_file_write(const std::string& path, const OpenedFile& f, const Consent& consent);

struct FileGrant {
  UniqueFd fd;  // O_RDWR, without O_DIRECT (a created file is laid out with buffered writes first)
  bool created = false;
  uint64_t size_bytes = 0;
};

// Opens `path` as a file to write. When nothing is there and create_size_bytes > 0 it is created
// (O_CREAT|O_EXCL|O_NOFOLLOW; a link planted there makes it fail, never followed); otherwise the
// path is opened O_PATH|O_NOFOLLOW, judged by decide_file_write and reopened for writing through
// that same descriptor, so the file judged is the file written.
Result<FileGrant> open_file_for_write(const std::string& path, const Consent& consent, uint64_t create_size_bytes,
                                      const HostPaths& host = {});

// Whether whatever `path` names (a final symlink judged as itself, never followed) may be replaced by
// a new file, as a report is renamed into place: an inode that backs a loop device or is active swap
// is a disk in disguise, and replacing its name loses it. Nothing there is fine.
Status check_replaceable(const std::string& path, const HostPaths& host = {});

// The loop device ("loop3") whose backing file is this inode, or empty (is_active_swap_file: stack_facts.hpp).
std::string loop_backed_by(dev_t dev, ino_t ino, const HostPaths& host = {});

}  // namespace diskvet::devices
