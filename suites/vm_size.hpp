// VM sizes as host caps (`--host-cap azure:Standard_B2s`, `--host-cap aws:m5.large`): the VM's own
// limit on the disk I/O of all its disks together (Azure: "max uncached disk throughput"; AWS: the
// EBS-optimized instance's baseline), from a shipped table where each number names its document.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace diskvet::suites {

struct VmSize {
  std::string provider;  // "azure", "aws"
  std::string name;      // "Standard_B2s", "m5.large"
  double iops = 0;
  double mbps = 0;       // MB/s, 10^6 bytes
  std::string source;    // document, version and date; what the numbers mean
};

// PROVIDER:NAME (case-insensitive; Azure's "Standard_" may be left out). nullopt: not in the table.
std::optional<VmSize> find_vm_size(const std::string& provider, const std::string& name);
// "azure:Standard_B2s", ... for `diskvet suites` and error messages.
std::vector<std::string> vm_size_names(const std::string& provider);
// What is not in the table and why (GCP, DMI inference).
const char* vm_size_notes();

}  // namespace diskvet::suites
