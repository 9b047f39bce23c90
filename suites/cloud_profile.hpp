// Cloud block volumes as profiles: the providers' published limits (per size tier, or a formula of
// the provisioned IOPS and MB/s), each number with the document and date it comes from, turned
// into a Profile for the acceptance tests; and a host-level cap (the VM's uncached disk limit) that
// bounds what any disk behind it can reach.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "suites/profile.hpp"

namespace diskvet::suites {

// What one volume promises, from a family's table or formula. mbps is decimal (10^6 bytes/s).
struct CloudSpec {
  std::string family;  // "azure-premium-ssd", "aws-gp3", ...
  std::string title;   // "Azure Premium SSD P30 (1024 GiB)"
  double iops = 0;
  std::string iops_source;
  double mbps = 0;     // 0: the provider publishes no throughput limit for this volume (not judged)
  std::string mbps_source;
  // An I/O up to this size counts as one against the IOPS limit (Azure and EBS: 256 KiB).
  uint32_t io_unit_bytes = 256 * 1024;
  std::optional<double> lat_mean_us;  // a published latency, always a design target, never an SLA
  std::string lat_source;
  // Burst above the baseline, where the provider publishes one: judged on the baseline after the burst.
  std::optional<double> burst_iops, burst_mbps, burst_s;
  std::string burst_source;
  std::vector<std::string> notes;  // what could not be confirmed, what was assumed
};

// The parameters after the family name: "aws-gp3:iops=6000,mbps=250" -> {"iops": "6000", "mbps": "250"}.
struct ProfileArgs {
  std::string name;
  std::map<std::string, std::string> params;
};
Result<ProfileArgs> parse_profile_args(const std::string& text);

// The family names shipped (for `diskvet suites` and error messages).
std::vector<std::string> cloud_family_names();
bool is_cloud_family(const std::string& name);

// The spec of a family with its parameters. size_bytes is the volume's size as the guest sees it
// (0: unknown), used where the limits follow the size (Azure tiers, gp2, GCP per GiB) and no
// size= or tier= parameter says otherwise. Unknown parameters and impossible values are errors.
Result<CloudSpec> cloud_spec(const ProfileArgs& args, uint64_t size_bytes);

// The Profile that judges a volume against its spec: max-iops and mixed-70-30 at the IOPS limit,
// max-throughput-64k at the MB/s limit (or the IOPS limit in 64 KiB I/Os when that is lower),
// latency-qd1 only where a latency is published. Every limit carries its source.
Profile cloud_profile(const CloudSpec& spec);

// A host-level cap (`--host-cap iops=1920,mbps=22.5`, or a VM size from the shipped table:
// `--host-cap azure:Standard_B2ms`, `--host-cap aws:m5.large`): the VM's limit over all its disks.
struct HostCap {
  std::optional<double> iops;
  std::optional<double> mbps;
  std::string text;     // as given
  std::string vm_size;  // "Azure Standard_B2ms" when a VM size set the numbers
  std::string source;   // where the VM size's numbers come from
};
Result<HostCap> parse_host_cap(const std::string& text);

// Lowers every IOPS and bandwidth floor of the profile to what the host cap lets through, and says
// in `bound` which limit bound each (empty when the cap bound nothing).
void apply_host_cap(Profile& p, const HostCap& cap, std::string& bound);

}  // namespace diskvet::suites
