// What a file is, in words, from its st_mode: for refusals that say what was found at a path.
#pragma once

#include <sys/types.h>

#include <string>

namespace diskvet {

// "a symbolic link", "a block device node", "a directory", ...; "a regular file" for one.
std::string file_kind(mode_t mode);

}  // namespace diskvet
