// Which cloud volume a disk is, from what the guest sees of it (vendor and model strings), for
// --profile auto. What the guest cannot see (an EBS volume's type, Azure Premium or Standard, a
// GCP disk's type) is never guessed silently: either the tier is inferred and the reason says
// "inferred" and why, or no profile is chosen and the reason asks for one by name.
#pragma once

#include <optional>
#include <string>

#include "devices/device.hpp"
#include "suites/cloud_profile.hpp"

namespace diskvet::suites {

enum class CloudProvider { none, aws_ebs, azure, gcp_pd };

struct CloudIdentity {
  CloudProvider provider = CloudProvider::none;
  std::string seen;                    // what identified it: "NVMe model 'Amazon Elastic Block Store'"
  std::optional<ProfileArgs> profile;  // the family (and parameters) when it can be inferred
  std::string reason;                  // "inferred: ..." or why it cannot be known
};

CloudIdentity identify_cloud(const devices::Device& d);

}  // namespace diskvet::suites
