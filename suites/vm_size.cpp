// The VM sizes' uncached disk limits, each row with the document it was read from on 2026-12-04.
//
// Azure: "Max uncached disk throughput: IOPS/MBps" of the size tables in MicrosoftDocs/azure-docs
// (learn.microsoft.com), MBps = 10^6 bytes/s as the tables' definitions say. Sizes that burst above
// it (Dsv5, Esv5: up to 30 minutes) are held to the baseline given here.
// AWS: "Baseline IOPS (16 KiB I/O)" and "Baseline throughput (MB/s, 128 KiB I/O)" of the Amazon
// EC2 User Guide's "Amazon EBS-optimized instances" tables (awsdocs/amazon-ec2-user-guide,
// doc_source/ebs-optimized.md). Sizes marked there as reaching their maximum for 30 minutes once
// a day are held to their baseline; sizes without a burst sustain the one number given.
#include "suites/vm_size.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace diskvet::suites {

namespace {

struct Row {
  const char* provider;
  const char* name;
  double iops;
  double mbps;
  const char* source;
};

constexpr const char* kAzureB =
    "Microsoft Learn, 'B-series burstable virtual machine sizes' (azure-docs articles/virtual-machines/sizes-b-series-burstable.md, "
    "ms.date 2020-02-03), max uncached disk throughput IOPS/MBps";
constexpr const char* kAzureDsv3 =
    "Microsoft Learn, 'Dv3 and Dsv3-series' (azure-docs articles/virtual-machines/dv3-dsv3-series.md, ms.date 2020-02-03), "
    "max uncached disk throughput IOPS/MBps";
constexpr const char* kAzureDsv5 =
    "Microsoft Learn, 'Dv5 and Dsv5-series' (azure-docs articles/virtual-machines/dv5-dsv5-series.md, ms.date 2021-10-20), "
    "max uncached disk throughput IOPS/MBps (the burst above it lasts up to 30 minutes)";
constexpr const char* kAzureEsv5 =
    "Microsoft Learn, 'Ev5 and Esv5-series' (azure-docs articles/virtual-machines/ev5-esv5-series.md, ms.date 2021-10-20), "
    "max uncached disk throughput IOPS/MBps (the burst above it lasts up to 30 minutes)";
constexpr const char* kAwsBaseline =
    "Amazon EC2 User Guide, 'Amazon EBS-optimized instances' (awsdocs/amazon-ec2-user-guide doc_source/ebs-optimized.md, read "
    "2026-12-04): baseline IOPS (16 KiB I/O) and baseline throughput (MB/s, 128 KiB I/O); the maximum above it lasts 30 minutes "
    "once every 24 hours";
constexpr const char* kAwsSustained =
    "Amazon EC2 User Guide, 'Amazon EBS-optimized instances' (awsdocs/amazon-ec2-user-guide doc_source/ebs-optimized.md, read "
    "2026-12-04): IOPS (16 KiB I/O) and throughput (MB/s, 128 KiB I/O) of a size without a burst";

constexpr Row kRows[] = {
    {"azure", "Standard_B1s", 320, 10, kAzureB},
    {"azure", "Standard_B1ms", 640, 10, kAzureB},
    {"azure", "Standard_B2s", 1280, 15, kAzureB},
    {"azure", "Standard_B2ms", 1920, 22.5, kAzureB},
    {"azure", "Standard_B4ms", 2880, 35, kAzureB},
    {"azure", "Standard_B8ms", 4320, 50, kAzureB},
    {"azure", "Standard_D2s_v3", 3200, 48, kAzureDsv3},
    {"azure", "Standard_D4s_v3", 6400, 96, kAzureDsv3},
    {"azure", "Standard_D8s_v3", 12800, 192, kAzureDsv3},
    {"azure", "Standard_D16s_v3", 25600, 384, kAzureDsv3},
    {"azure", "Standard_D32s_v3", 51200, 768, kAzureDsv3},
    {"azure", "Standard_D2s_v5", 3750, 85, kAzureDsv5},
    {"azure", "Standard_D4s_v5", 6400, 145, kAzureDsv5},
    {"azure", "Standard_D8s_v5", 12800, 290, kAzureDsv5},
    {"azure", "Standard_D16s_v5", 25600, 600, kAzureDsv5},
    {"azure", "Standard_D32s_v5", 51200, 865, kAzureDsv5},
    {"azure", "Standard_E2s_v5", 3750, 85, kAzureEsv5},
    {"azure", "Standard_E4s_v5", 6400, 145, kAzureEsv5},
    {"azure", "Standard_E8s_v5", 12800, 290, kAzureEsv5},
    {"azure", "Standard_E16s_v5", 25600, 600, kAzureEsv5},
    {"azure", "Standard_E32s_v5", 51200, 865, kAzureEsv5},
    {"aws", "m5.large", 3600, 81.25, kAwsBaseline},
    {"aws", "m5.xlarge", 6000, 143.75, kAwsBaseline},
    {"aws", "m5.2xlarge", 12000, 287.5, kAwsBaseline},
    {"aws", "m5.4xlarge", 18750, 593.75, kAwsSustained},
    {"aws", "m6i.large", 3600, 81.25, kAwsBaseline},
    {"aws", "m6i.xlarge", 6000, 156.25, kAwsBaseline},
    {"aws", "m6i.2xlarge", 12000, 312.5, kAwsBaseline},
    {"aws", "m6i.4xlarge", 20000, 625, kAwsBaseline},
    {"aws", "m6i.8xlarge", 40000, 1250, kAwsSustained},
    {"aws", "c5.large", 4000, 81.25, kAwsBaseline},
    {"aws", "c5.xlarge", 6000, 143.75, kAwsBaseline},
    {"aws", "c5.2xlarge", 10000, 287.5, kAwsBaseline},
    {"aws", "c5.4xlarge", 20000, 593.75, kAwsSustained},
    {"aws", "r5.large", 3600, 81.25, kAwsBaseline},
    {"aws", "r5.xlarge", 6000, 143.75, kAwsBaseline},
    {"aws", "r5.2xlarge", 12000, 287.5, kAwsBaseline},
    {"aws", "r5.4xlarge", 18750, 593.75, kAwsSustained},
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::optional<VmSize> find_vm_size(const std::string& provider, const std::string& name) {
  const std::string p = lower(provider), n = lower(name);
  for (const Row& r : kRows) {
    if (p != r.provider) continue;
    const std::string full = lower(r.name);
    if (n == full || (p == "azure" && "standard_" + n == full))
      return VmSize{r.provider, r.name, r.iops, r.mbps, r.source};
  }
  return std::nullopt;
}

std::vector<std::string> vm_size_names(const std::string& provider) {
  std::vector<std::string> out;
  for (const Row& r : kRows)
    if (provider.empty() || provider == r.provider) out.push_back(std::string(r.provider) + ":" + r.name);
  return out;
}

const char* vm_size_notes() {
  return "Google Cloud's per-VM disk limits (by machine type, vCPUs and disk type) were not confirmed from a document here and "
         "are not shipped: give them as --host-cap iops=N,mbps=M. The VM size is never inferred from the guest: Azure's DMI "
         "names no size (product 'Virtual Machine'), and AWS's was not confirmed: name it.";
}

}  // namespace diskvet::suites
