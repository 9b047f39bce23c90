// SHA-256 (FIPS 180-4), small and dependency-free: the report's integrity seal. A hundred lines
// here spare the appliance image libcrypto for one hash.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace diskvet::runner {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  std::array<uint8_t, 32> digest();  // finishes the hash; call once

 private:
  void block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t used_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lower-case hex of SHA-256(data).
std::string sha256_hex(std::string_view data);

}  // namespace diskvet::runner
