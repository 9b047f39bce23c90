// SHA-256 of the report's canonical content, its integrity seal: OpenSSL's libcrypto, which the
// binary loads anyway through libnvme, so the appliance image gains nothing for it.
#pragma once

#include <string>
#include <string_view>

namespace diskvet::runner {

// Lower-case hex of SHA-256(data).
std::string sha256_hex(std::string_view data);

}  // namespace diskvet::runner
