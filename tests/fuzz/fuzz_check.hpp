// What every harness may assert beyond "no crash": a broken property prints what broke and aborts,
// so libFuzzer (and the corpus replay under ctest) reports the input that broke it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define FUZZ_CHECK(cond)                                                                     \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond);      \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)

namespace diskvet::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

}  // namespace diskvet::fuzz
