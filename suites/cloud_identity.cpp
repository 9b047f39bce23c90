// Cloud volumes by their guest-visible identity (vendor and model as sysfs and NVMe Identify give them).
#include "suites/cloud_identity.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace diskvet::suites {

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  size_t i = s.find_first_not_of(" \t");
  return i == std::string::npos ? std::string() : s.substr(i);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

CloudIdentity identify_cloud(const devices::Device& d) {
  const std::string model = trimmed(d.model), vendor = trimmed(d.vendor);
  CloudIdentity id;
  if (model == "Amazon Elastic Block Store") {
    id.provider = CloudProvider::aws_ebs;
    id.seen = fmt::format("model '{}'{}", model, d.serial.empty() ? "" : " (volume " + d.serial + ")");
    id.reason = fmt::format("an AWS EBS volume ({}): its type (gp2, gp3, io1, io2) and provisioned IOPS cannot be seen from the guest; "
                            "name the profile, e.g. --profile aws-gp3:iops=3000,mbps=125",
                            id.seen);
    return id;
  }
  const bool azure_scsi = vendor == "Msft" && model == "Virtual Disk";
  const bool azure_nvme = starts_with(model, "MSFT NVMe Accelerator");
  if (azure_scsi || azure_nvme) {
    id.provider = CloudProvider::azure;
    id.seen = azure_scsi ? "vendor 'Msft', model 'Virtual Disk'" : fmt::format("NVMe model '{}'", model);
    id.profile = ProfileArgs{"azure-premium-ssd", {}};
    id.reason = fmt::format("inferred: an Azure managed disk ({}); Premium SSD assumed (a Standard SSD looks the same from the guest, and "
                            "the VM's local temporary disk too), its tier from the size; the owner can change the performance tier "
                            "without resizing: name it to be sure, e.g. --profile azure-premium-ssd:tier=P30",
                            id.seen);
    return id;
  }
  if (model == "PersistentDisk" || starts_with(model, "nvme_card-pd")) {
    id.provider = CloudProvider::gcp_pd;
    id.seen = fmt::format("model '{}'", model);
    id.reason = fmt::format("a Google Cloud Persistent Disk ({}): pd-balanced and pd-ssd look the same from the guest; name it, e.g. "
                            "--profile gcp-pd-balanced or --profile gcp-pd-ssd",
                            id.seen);
    return id;
  }
  return id;
}

}  // namespace diskvet::suites
