// The hosts inventory of a multi-host run (`diskvet run --hosts FILE`): each host, how SSH reaches
// it, and its devices by a stable identity with the consent for each. A plain value, read strictly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace diskvet::runner {

struct HostDevice {
  std::string id;             // serial, SERIAL/NSID, WWN or /dev/disk/by-id path, as that host sees it
  bool destroy_data = false;  // consent to write it (the host's own gate still decides)
};

struct Host {
  std::string name;          // unique; names the host in reports and in file names
  std::string ssh;           // the ssh destination ("root@srv1", or a Host of the ssh config)
  uint32_t ssh_port = 0;     // 0: ssh's own default (or the ssh config's)
  std::string diskvet = "diskvet";  // diskvet on that host; empty: none (read-only workloads only)
  std::string fio = "fio";          // fio on that host
  std::vector<HostDevice> devices;

  bool has_diskvet() const { return !diskvet.empty(); }
  bool writes_allowed() const;  // has diskvet and at least one device with destroy_data
};

struct Inventory {
  std::string file;        // where it was read from
  std::string ssh_config;  // optional `ssh -F` file, relative to the inventory's folder
  std::vector<Host> hosts;
};

// {"ssh_config": "...", "hosts": [{"name", "ssh", "port", "diskvet": "PATH"|false, "fio",
//   "devices": [{"id", "destroy_data"}]}]}. Unknown keys, duplicate names or device ids, a name
// unfit for a file name, an ssh destination or id that could pass for an option, and consent on a
// host without diskvet are input errors naming the file, the key and the fix.
Result<Inventory> parse_inventory(std::string_view text, const std::string& file);
Result<Inventory> load_inventory(const std::string& path);

}  // namespace diskvet::runner
