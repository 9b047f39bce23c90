// What a file is, in words.
#include "common/file_kind.hpp"

#include <sys/stat.h>

namespace diskvet {

std::string file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISBLK(mode)) return "a block device node";
  if (S_ISCHR(mode)) return "a character device node";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "neither a file nor a device";
}

}  // namespace diskvet
