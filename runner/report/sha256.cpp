// SHA-256 through libcrypto's one-shot EVP_Digest.
#include "runner/report/sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace diskvet::runner {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_bytes = 0;
  // Fails only when libcrypto cannot allocate its context: not an outcome a report can carry.
  if (EVP_Digest(data.data(), data.size(), digest.data(), &digest_bytes, EVP_sha256(), nullptr) != 1 || digest_bytes != 32)
    throw std::runtime_error("libcrypto: EVP_Digest(SHA-256) failed");
  static constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * digest_bytes);
  for (unsigned int i = 0; i < digest_bytes; ++i) out += kHex[digest[i] >> 4], out += kHex[digest[i] & 15];
  return out;
}

}  // namespace diskvet::runner
