// Reading sysfs attributes: small text files, trimmed; a missing or unreadable one is nullopt.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace diskvet::devices {

// The attribute's text without trailing whitespace; nullopt when absent or unreadable.
std::optional<std::string> read_attr(const std::filesystem::path& file);
// The attribute as an unsigned decimal number; nullopt when absent or not a number.
std::optional<uint64_t> read_u64(const std::filesystem::path& file);
// The attribute's raw bytes (binary VPD pages); empty when absent.
std::string read_raw(const std::filesystem::path& file);

// The device node's name under /dev from the block device's uevent (DEVNAME=), e.g. "nvme0n1" or
// "mapper/x"; empty when the uevent has none.
std::string devname(const std::filesystem::path& sysdir);

// The selected value of a sysfs choice list: "none [mq-deadline] kyber" -> "mq-deadline".
std::string selected_choice(const std::string& list);

}  // namespace diskvet::devices
