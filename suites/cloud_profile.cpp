// The providers' published volume limits, with where each number comes from, and the host cap.
//
// Every number below was read from the document named beside it on 2026-12-04 (the date of the
// document itself where it carries one). A number that could not be confirmed from a document is
// not used as a limit: the spec's notes say so and the owner can give it as a parameter.
#include "suites/cloud_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/units.hpp"
#include "suites/vm_size.hpp"

namespace diskvet::suites {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double mib_to_mbps(double mib_per_s) { return mib_per_s * kMiB / 1e6; }

constexpr const char* kAzurePremiumTable =
    "Microsoft Learn, 'Azure managed disk types', Premium SSD size table (azure-docs includes/disk-storage-premium-ssd-sizes.md, "
    "ms.date 2023-03-16)";
constexpr const char* kAzureStandardTable =
    "Microsoft Learn, 'Azure managed disk types', Standard SSD size table (azure-docs includes/disk-storage-standard-ssd-sizes.md, "
    "ms.date 2023-03-16); published as 'up to', delivered 99% of the time";
constexpr const char* kAzureSsdLatency =
    "Microsoft Learn, 'Azure managed disk types' (articles/virtual-machines/disks-types.md): 'single-digit millisecond latencies'; "
    "a design target, not an SLA";
constexpr const char* kAzureV2 =
    "Microsoft Learn, 'Azure managed disk types', Premium SSD v2 performance (articles/virtual-machines/disks-types.md, read "
    "2026-12-04): 3,000 IOPS and 125 MBps included, up to 500 IOPS per GiB and 80,000 IOPS, 0.25 MiB/s per IOPS up to 1,200 MBps";
constexpr const char* kAzureV2Latency =
    "Microsoft Learn, 'Azure managed disk types': Premium SSD v2 'less than 1 ms average read and write latency'; a design "
    "target, not an SLA";
constexpr const char* kAzureUltra =
    "Microsoft Learn, 'Azure managed disk types', Ultra disk IOPS and throughput (articles/virtual-machines/disks-types.md, read "
    "2026-12-04): IOPS and MBps as provisioned; throughput at most 256 KiB/s per provisioned IOPS";
constexpr const char* kAzureUltraLatency =
    "Microsoft Learn, 'Azure managed disk types': Ultra disks 'designed to provide submillisecond latencies'; a design target, "
    "not an SLA";
constexpr const char* kGp3 =
    "AWS, EC2 API reference (CreateVolume Iops: gp3 3,000-16,000 IOPS, default 3,000) and AWS Prescriptive Guidance 'Amazon EBS "
    "SSD storage types' (gp3: baseline 3,000 IOPS and 125 MiB/s, at most 500 IOPS per GiB and 0.25 MiB/s per IOPS), read "
    "2026-12-04";
constexpr const char* kGpLatency =
    "AWS, Amazon EBS volume types: General Purpose SSD volumes 'deliver single-digit millisecond latencies' (as quoted in "
    "secondary sources read 2026-12-04); a design target, not an SLA";
constexpr const char* kGp2 =
    "AWS, Amazon EC2 user guide, gp2 volumes: 3 IOPS per GiB of volume size, 1 GiB to 16 TiB; AWS Prescriptive Guidance 'Amazon "
    "EBS SSD storage types': at most 16,000 IOPS and 250 MiB/s per volume; read 2026-12-04";
constexpr const char* kGp2Burst =
    "AWS, Amazon EC2 user guide, gp2 burst bucket: an initial balance of 5.4 million I/O credits, enough for the maximum burst of "
    "3,000 IOPS for 30 minutes; read 2026-12-04";
constexpr const char* kIo =
    "AWS, EC2 API reference (CreateVolume Iops: io1 100-64,000 IOPS, io2 100-256,000 IOPS; 'provisioned IOPS'), read 2026-12-04";
constexpr const char* kIo2Latency =
    "AWS, Amazon EBS Provisioned IOPS SSD volumes: io2 Block Express 'consistent sub-millisecond latency'; a design target, not "
    "an SLA";
constexpr const char* kGcpPd =
    "Google Cloud, 'About Persistent Disk performance' (cloud.google.com/compute/docs/disks/performance, read 2026-12-04): "
    "pd-balanced 6 IOPS and 0.28 MiBps per GiB, pd-ssd 30 IOPS and 0.48 MiBps per GiB; per-instance limits by machine type";

struct Tier {
  const char* name;
  double size_gib;
  double iops;
  double mbps;
};

// Premium SSD: base provisioned IOPS and MB/s per disk (the table's first rows).
constexpr Tier kPremium[] = {{"P1", 4, 120, 25},         {"P2", 8, 120, 25},          {"P3", 16, 120, 25},         {"P4", 32, 120, 25},
                             {"P6", 64, 240, 50},        {"P10", 128, 500, 100},      {"P15", 256, 1100, 125},     {"P20", 512, 2300, 150},
                             {"P30", 1024, 5000, 200},   {"P40", 2048, 7500, 250},    {"P50", 4096, 7500, 250},    {"P60", 8192, 16000, 500},
                             {"P70", 16384, 18000, 750}, {"P80", 32767, 20000, 900}};
// Standard SSD: base IOPS and MB/s per disk ("up to").
constexpr Tier kStandard[] = {{"E1", 4, 500, 60},          {"E2", 8, 500, 60},         {"E3", 16, 500, 60},        {"E4", 32, 500, 60},
                              {"E6", 64, 500, 60},         {"E10", 128, 500, 60},      {"E15", 256, 500, 60},      {"E20", 512, 500, 60},
                              {"E30", 1024, 500, 60},      {"E40", 2048, 500, 60},     {"E50", 4096, 500, 60},     {"E60", 8192, 2000, 400},
                              {"E70", 16384, 4000, 600},   {"E80", 32767, 6000, 750}};

Result<double> number_param(const ProfileArgs& a, const std::string& key, double lo, double hi) {
  const std::string& s = a.params.at(key);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < lo || v > hi)
    return usage_error("--profile " + a.name, fmt::format("{}={} is not a number from {} to {}", key, s, lo, hi));
  return v;
}

// The volume's size in GiB: size= (a size with a unit, or GiB), else the device's.
Result<double> size_gib(const ProfileArgs& a, uint64_t size_bytes) {
  if (auto it = a.params.find("size"); it != a.params.end()) {
    auto bytes = parse_size(it->second.find_first_not_of("0123456789.") == std::string::npos ? it->second + "g" : it->second);
    if (!bytes || *bytes == 0) return usage_error("--profile " + a.name, fmt::format("size={} is not a size", it->second), "e.g. size=1024g");
    return static_cast<double>(*bytes) / kGiB;
  }
  if (size_bytes == 0) return usage_error("--profile " + a.name, "needs the volume's size", "give size=, e.g. size=512g");
  return static_cast<double>(size_bytes) / kGiB;
}

Status check_keys(const ProfileArgs& a, std::initializer_list<const char*> allowed) {
  for (const auto& param : a.params) {
    const std::string& k = param.first;
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* x) { return k == x; })) {
      std::string list;
      for (const char* x : allowed) list += (list.empty() ? "" : ", ") + std::string(x);
      return usage_error("--profile " + a.name, fmt::format("has no parameter '{}'", k), list.empty() ? "it takes none" : "it takes " + list);
    }
  }
  return ok_status();
}

// An Azure size tier: tier= names it, else the smallest tier that holds the size (Azure bills and
// provisions a disk at the next tier up).
Result<CloudSpec> azure_tiered(const ProfileArgs& a, uint64_t size_bytes, const Tier* table, size_t n, const char* family_title,
                               const char* source) {
  if (auto ok = check_keys(a, {"tier", "size", "iops", "mbps"}); !ok) return ok.error();
  const Tier* t = nullptr;
  CloudSpec s;
  if (auto it = a.params.find("tier"); it != a.params.end()) {
    std::string want = it->second;
    std::transform(want.begin(), want.end(), want.begin(), ::toupper);
    for (size_t i = 0; i < n; ++i)
      if (want == table[i].name) t = &table[i];
    if (!t) return usage_error("--profile " + a.name, fmt::format("has no tier '{}'", it->second), fmt::format("tiers {}..{}", table[0].name, table[n - 1].name));
  } else {
    auto gib = size_gib(a, size_bytes);
    if (!gib) return gib.error();
    for (size_t i = 0; i < n && !t; ++i)
      if (*gib <= table[i].size_gib + 1e-9) t = &table[i];
    if (!t) return usage_error("--profile " + a.name, fmt::format("{:.0f} GiB is larger than the largest tier", *gib));
    s.notes.push_back(fmt::format("tier {} inferred from the size ({:.0f} GiB: the smallest tier that holds it); the owner can set a "
                                  "higher performance tier without resizing: give tier= to be sure",
                                  t->name, *gib));
  }
  s.title = fmt::format("{} {} ({:.0f} GiB)", family_title, t->name, t->size_gib);
  s.iops = t->iops;
  s.mbps = t->mbps;
  s.iops_source = s.mbps_source = fmt::format("{}: {} {:.0f} IOPS, {:.0f} MB/s", source, t->name, t->iops, t->mbps);
  return s;
}

// iops= and mbps= replace the table's numbers (a changed performance tier, an expanded disk).
Status override_provisioned(const ProfileArgs& a, CloudSpec& s, bool mbps_in_mib) {
  if (a.params.count("iops")) {
    auto v = number_param(a, "iops", 1, 1e7);
    if (!v) return v.error();
    s.iops = *v;
    s.iops_source = fmt::format("provisioned on the command line (iops={})", a.params.at("iops"));
  }
  if (a.params.count("mbps")) {
    auto v = number_param(a, "mbps", 0.001, 1e6);
    if (!v) return v.error();
    s.mbps = mbps_in_mib ? mib_to_mbps(*v) : *v;
    s.mbps_source = fmt::format("provisioned on the command line (mbps={}{})", a.params.at("mbps"), mbps_in_mib ? " MiB/s" : " MB/s");
  }
  return ok_status();
}

}  // namespace

Result<ProfileArgs> parse_profile_args(const std::string& text) {
  ProfileArgs a;
  auto colon = text.find(':');
  a.name = text.substr(0, colon);
  if (colon == std::string::npos) return a;
  std::string rest = text.substr(colon + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find(',', start);
    if (end == std::string::npos) end = rest.size();
    std::string item = rest.substr(start, end - start);
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return usage_error("--profile " + text, fmt::format("'{}' is not KEY=VALUE", item), "e.g. aws-gp3:iops=6000,mbps=250");
    std::string key = item.substr(0, eq);
    if (a.params.count(key)) return usage_error("--profile " + text, fmt::format("gives {} twice", key));
    a.params[key] = item.substr(eq + 1);
    start = end + 1;
  }
  return a;
}

std::vector<std::string> cloud_family_names() {
  return {"azure-premium-ssd", "azure-standard-ssd", "azure-premium-ssd-v2", "azure-ultra", "aws-gp3",
          "aws-gp2",           "aws-io1",            "aws-io2",              "gcp-pd-balanced", "gcp-pd-ssd"};
}

bool is_cloud_family(const std::string& name) {
  auto all = cloud_family_names();
  return std::find(all.begin(), all.end(), name) != all.end();
}

namespace {

// Azure Premium and Standard SSD: a tier by the disk's size, the small tiers' credit-based burst.
Status azure_ssd(const ProfileArgs& a, uint64_t size_bytes, CloudSpec& s) {
  const std::string& f = a.name;
  const bool premium = f == "azure-premium-ssd";
  auto t = premium ? azure_tiered(a, size_bytes, kPremium, std::size(kPremium), "Azure Premium SSD", kAzurePremiumTable)
                   : azure_tiered(a, size_bytes, kStandard, std::size(kStandard), "Azure Standard SSD", kAzureStandardTable);
  if (!t) return t.error();
  s = std::move(*t);
  if (auto ok = override_provisioned(a, s, false); !ok) return ok.error();
  s.lat_mean_us = 10000;
  s.lat_source = kAzureSsdLatency;
  // Credit-based burst of the small tiers, 30 minutes at most (the tables' burst rows).
  const bool small = premium ? s.iops <= 2300 : s.iops <= 500;
  if (small && !a.params.count("iops")) {
    s.burst_iops = premium ? 3500 : 600;
    s.burst_mbps = premium ? 170 : 150;
    s.burst_s = 30 * 60;
    s.burst_source = std::string(premium ? kAzurePremiumTable : kAzureStandardTable) + ": max burst IOPS, throughput and duration";
  }
  return ok_status();
}

// Azure Premium SSD v2 and AWS gp3: an included baseline, raised by what is provisioned.
Status provisioned_baseline(const ProfileArgs& a, uint64_t /*size_bytes*/, CloudSpec& s) {
  const std::string& f = a.name;
  const bool gp3 = f == "aws-gp3";
  if (auto ok = check_keys(a, {"iops", "mbps"}); !ok) return ok.error();
  s.title = gp3 ? "AWS EBS gp3" : "Azure Premium SSD v2";
  s.iops = 3000;
  s.mbps = gp3 ? mib_to_mbps(125) : 125;
  s.iops_source = s.mbps_source = std::string(gp3 ? kGp3 : kAzureV2) + " (the included baseline)";
  if (auto ok = override_provisioned(a, s, gp3); !ok) return ok.error();
  // Premium SSD v2: 80,000. gp3: 80,000 is from a secondary source; the EC2 API page in kGp3 says 16,000.
  const double max_iops = 80000;
  if (s.iops < 3000 && gp3) return usage_error("--profile " + a.name, "gp3 provides at least 3,000 IOPS", "iops=3000 or more");
  if (s.iops > max_iops) return usage_error("--profile " + a.name, fmt::format("iops={} is more than {:.0f}", s.iops, max_iops));
  // Throughput is bounded by the IOPS: 0.25 MiB/s per provisioned IOPS (both providers).
  if (a.params.count("mbps") && s.mbps > mib_to_mbps(0.25 * s.iops) + 1e-6 && s.mbps > (gp3 ? mib_to_mbps(125) : 125) + 1e-6)
    return usage_error("--profile " + a.name,
                       fmt::format("mbps={} needs more IOPS: at most 0.25 MiB/s per provisioned IOPS", a.params.at("mbps")),
                       fmt::format("raise iops to at least {:.0f}", std::ceil(s.mbps * 1e6 / kMiB / 0.25)));
  if (gp3) {
    s.lat_mean_us = 10000;
    s.lat_source = kGpLatency;
    s.notes.push_back(
        "AWS raised gp3's maximum to 80,000 IOPS and 2,000 MiB/s in September 2025 (a secondary source; the API "
        "reference read says 16,000): values up to 80,000 IOPS are accepted");
  } else {
    s.lat_mean_us = 1000;
    s.lat_source = kAzureV2Latency;
  }
  return ok_status();
}

// Azure Ultra Disk: IOPS and MB/s both provisioned.
Status azure_ultra(const ProfileArgs& a, uint64_t /*size_bytes*/, CloudSpec& s) {
  if (auto ok = check_keys(a, {"iops", "mbps"}); !ok) return ok.error();
  if (!a.params.count("iops") || !a.params.count("mbps"))
    return usage_error("--profile " + a.name, "an Ultra disk's IOPS and MB/s are provisioned: give both",
                       "e.g. azure-ultra:iops=20000,mbps=500");
  s.title = "Azure Ultra Disk";
  if (auto ok = override_provisioned(a, s, false); !ok) return ok.error();
  if (s.mbps > s.iops * 256 * 1024 / 1e6 + 1e-6)
    return usage_error("--profile " + a.name, "mbps is more than 256 KiB/s per provisioned IOPS allows");
  s.lat_mean_us = 1000;
  s.lat_source = kAzureUltraLatency;
  s.notes.push_back(kAzureUltra);
  return ok_status();
}

// AWS gp2: 3 IOPS per GiB, with a burst below 3,000.
Status aws_gp2(const ProfileArgs& a, uint64_t size_bytes, CloudSpec& s) {
  if (auto ok = check_keys(a, {"size"}); !ok) return ok.error();
  auto gib = size_gib(a, size_bytes);
  if (!gib) return gib.error();
  if (*gib < 1) return usage_error("--profile " + a.name, fmt::format("{:.3f} GiB is below gp2's smallest volume, 1 GiB", *gib));
  s.title = fmt::format("AWS EBS gp2 ({:.0f} GiB)", *gib);
  s.iops = std::min(16000.0, 3 * std::floor(*gib));
  s.iops_source = fmt::format("{}: 3 x {:.0f} GiB", kGp2, std::floor(*gib));
  s.mbps = mib_to_mbps(250);
  s.mbps_source = std::string(kGp2) + " (250 MiB/s, the volume type's maximum: smaller volumes may be held lower)";
  s.lat_mean_us = 10000;
  s.lat_source = kGpLatency;
  if (s.iops < 3000) {
    s.burst_iops = 3000;
    s.burst_s = 30 * 60;
    s.burst_source = kGp2Burst;
  }
  s.notes.push_back("gp2's floor of 100 IOPS for the smallest volumes is from a secondary source: not applied");
  return ok_status();
}

// AWS io1 and io2: provisioned IOPS.
Status aws_io(const ProfileArgs& a, uint64_t /*size_bytes*/, CloudSpec& s) {
  const std::string& f = a.name;
  if (auto ok = check_keys(a, {"iops", "mbps"}); !ok) return ok.error();
  if (!a.params.count("iops"))
    return usage_error("--profile " + a.name, "io1/io2 IOPS are provisioned: give iops=", "e.g. aws-io2:iops=20000");
  s.title = f == "aws-io1" ? "AWS EBS io1" : "AWS EBS io2";
  if (auto ok = override_provisioned(a, s, true); !ok) return ok.error();
  const double max_iops = f == "aws-io1" ? 64000 : 256000;
  if (s.iops < 100 || s.iops > max_iops)
    return usage_error("--profile " + a.name, fmt::format("iops={} is outside 100..{:.0f}", a.params.at("iops"), max_iops));
  s.iops_source += std::string("; ") + kIo;
  if (!a.params.count("mbps"))
    s.notes.push_back(
        "io1/io2 throughput follows the IOPS and the instance in ways not confirmed from a document here: not judged "
        "unless mbps= is given");
  if (f == "aws-io2") {
    s.lat_mean_us = 1000;
    s.lat_source = kIo2Latency;
  }
  return ok_status();
}

// Google Cloud pd-balanced and pd-ssd: per-GiB formulas.
Status gcp_pd(const ProfileArgs& a, uint64_t size_bytes, CloudSpec& s) {
  const std::string& f = a.name;
  if (auto ok = check_keys(a, {"size", "iops", "mbps"}); !ok) return ok.error();
  auto gib = size_gib(a, size_bytes);
  if (!gib) return gib.error();
  const bool ssd = f == "gcp-pd-ssd";
  s.title = fmt::format("Google Cloud {} ({:.0f} GiB)", ssd ? "pd-ssd" : "pd-balanced", *gib);
  s.iops = (ssd ? 30 : 6) * *gib;
  s.mbps = mib_to_mbps((ssd ? 0.48 : 0.28) * *gib);
  s.iops_source = s.mbps_source = fmt::format("{}: {:.0f} GiB x {} IOPS, x {} MiBps", kGcpPd, *gib, ssd ? 30 : 6, ssd ? 0.48 : 0.28);
  if (auto ok = override_provisioned(a, s, true); !ok) return ok.error();
  s.notes.push_back(
      "the per-GiB formula only: a baseline for small disks and the per-instance caps (by machine type and vCPUs) "
      "were not confirmed from a document here; give the instance's cap with --host-cap");
  return ok_status();
}

}  // namespace

Result<CloudSpec> cloud_spec(const ProfileArgs& a, uint64_t size_bytes) {
  using Family = Status (*)(const ProfileArgs&, uint64_t, CloudSpec&);
  static const std::pair<const char*, Family> kFamilies[] = {{"azure-premium-ssd", azure_ssd},
                                                             {"azure-standard-ssd", azure_ssd},
                                                             {"azure-premium-ssd-v2", provisioned_baseline},
                                                             {"aws-gp3", provisioned_baseline},
                                                             {"azure-ultra", azure_ultra},
                                                             {"aws-gp2", aws_gp2},
                                                             {"aws-io1", aws_io},
                                                             {"aws-io2", aws_io},
                                                             {"gcp-pd-balanced", gcp_pd},
                                                             {"gcp-pd-ssd", gcp_pd}};
  for (const auto& [name, build] : kFamilies) {
    if (a.name != name) continue;
    CloudSpec s;
    if (auto ok = build(a, size_bytes, s); !ok) return ok.error();
    s.family = a.name;
    return s;
  }
  std::string names;
  for (const auto& n : cloud_family_names()) names += (names.empty() ? "" : ", ") + n;
  return usage_error("--profile " + a.name, "is not a cloud volume family", "families: " + names);
}

Profile cloud_profile(const CloudSpec& s) {
  Profile p;
  p.name = s.family;
  p.description = s.title;
  p.file = "cloud family " + s.family;
  p.source = s.iops_source;
  constexpr double kTolerancePct = 5;  // the provider meters over its own intervals: a few % either way is metering, not a miss
  auto at_least = [&](runner::MetricScope scope, runner::MetricKind kind, double value, std::string source) {
    return MetricLimit{runner::metric_name(scope, kind), runner::Metric{scope, kind}, runner::Limit{runner::Limit::Bound::min, value, kTolerancePct},
                       std::move(source)};
  };
  // IOPS limits count an I/O up to io_unit_bytes as one; a throughput limit caps IOPS of large blocks.
  auto iops_at = [&](double bs) {
    const double by_iops = s.iops / std::ceil(bs / s.io_unit_bytes);
    return s.mbps > 0 ? std::min(by_iops, s.mbps * 1e6 / bs) : by_iops;
  };
  using runner::MetricKind;
  using runner::MetricScope;
  TestLimits iops{"max-iops", {at_least(MetricScope::each, MetricKind::iops, iops_at(4096), s.iops_source)}};
  TestLimits mixed{"mixed-70-30", {at_least(MetricScope::total, MetricKind::iops, iops_at(8192), s.iops_source)}};
  TestLimits tput{"max-throughput-64k", {}};
  if (s.mbps > 0) {
    double by_iops = s.iops * 65536 / 1e6;
    double mbps = std::min(s.mbps, by_iops);
    tput.limits.push_back(at_least(MetricScope::each, MetricKind::bw_mbps, mbps,
                                mbps < s.mbps ? fmt::format("{:.0f} IOPS x 64 KiB ({})", s.iops, s.iops_source) : s.mbps_source));
  }
  p.tests = {iops, tput, mixed};
  if (s.lat_mean_us) {
    p.tests.push_back(TestLimits{"latency-qd1", {MetricLimit{"lat_mean_us", runner::Metric{MetricScope::each, MetricKind::lat_mean_us},
                                                             runner::Limit{runner::Limit::Bound::max, *s.lat_mean_us, 0}, s.lat_source}}});
  }
  return p;
}

Result<HostCap> parse_host_cap(const std::string& text) {
  HostCap cap;
  cap.text = text;
  // PROVIDER:SIZE, a VM size from the shipped table.
  if (auto colon = text.find(':'); colon != std::string::npos && text.find('=') == std::string::npos) {
    const std::string provider = text.substr(0, colon), name = text.substr(colon + 1);
    if (provider != "azure" && provider != "aws")
      return usage_error("--host-cap " + text, fmt::format("has no VM sizes for '{}'", provider),
                         std::string("azure:SIZE or aws:TYPE, or iops=N,mbps=M. ") + vm_size_notes());
    auto vm = find_vm_size(provider, name);
    if (!vm) {
      std::string names;
      for (const auto& n : vm_size_names(provider)) names += (names.empty() ? "" : ", ") + n;
      return usage_error("--host-cap " + text, fmt::format("is not a VM size in the shipped table"),
                         "sizes: " + names + "; or give the size's limits as iops=N,mbps=M");
    }
    cap.iops = vm->iops;
    cap.mbps = vm->mbps;
    cap.vm_size = fmt::format("{} {}", provider == "azure" ? "Azure" : "AWS", vm->name);
    cap.source = vm->source;
    return cap;
  }
  auto args = parse_profile_args("host:" + text);
  if (!args) return usage_error("--host-cap " + text, args.error().what, "e.g. --host-cap iops=1920,mbps=22.5");
  args->name = "host";
  for (const auto& [k, v] : args->params) {
    if (k != "iops" && k != "mbps") return usage_error("--host-cap " + text, fmt::format("has no key '{}'", k), "iops= and mbps= (MB/s, 10^6 bytes)");
    auto n = number_param(*args, k, 0.001, 1e9);
    if (!n) return usage_error("--host-cap " + text, n.error().what, "e.g. --host-cap iops=1920,mbps=22.5");
    (k == "iops" ? cap.iops : cap.mbps) = *n;
  }
  if (!cap.iops && !cap.mbps) return usage_error("--host-cap", "is empty", "e.g. --host-cap iops=1920,mbps=22.5");
  return cap;
}

void apply_host_cap(Profile& p, const HostCap& cap, std::string& bound) {
  // The block size of each test's workloads as the shipped suites run them.
  auto block = [](const std::string& test) -> double { return test == "max-throughput-64k" ? 65536 : test == "mixed-70-30" ? 8192 : 4096; };
  std::vector<std::string> said;
  for (auto& t : p.tests)
    for (auto& l : t.limits) {
      if (l.limit.bound != runner::Limit::Bound::min) continue;
      const double bs = block(t.test_id);
      double host = 1e300;
      std::string why;
      if (l.metric.kind == runner::MetricKind::iops) {
        if (cap.iops) host = *cap.iops, why = fmt::format("{:g} IOPS", *cap.iops);
        if (cap.mbps && *cap.mbps * 1e6 / bs < host) host = *cap.mbps * 1e6 / bs, why = fmt::format("{:g} MB/s in {:.0f} KiB I/Os", *cap.mbps, bs / 1024);
      } else if (l.metric.kind == runner::MetricKind::bw_mbps) {
        if (cap.mbps) host = *cap.mbps, why = fmt::format("{:g} MB/s", *cap.mbps);
        if (cap.iops && *cap.iops * bs / 1e6 < host) host = *cap.iops * bs / 1e6, why = fmt::format("{:g} IOPS of {:.0f} KiB", *cap.iops, bs / 1024);
      } else {
        continue;
      }
      if (host >= l.limit.value) continue;
      std::string line = cap.vm_size.empty()
                             ? fmt::format("{} {}: the host cap ({}) binds, below the disk's {:g}", t.test_id, l.name, why, l.limit.value)
                             : fmt::format("{} {}: the VM size {} ({}) binds, below the disk's {:g}", t.test_id, l.name, cap.vm_size, why, l.limit.value);
      l.source = cap.vm_size.empty()
                     ? fmt::format("host cap --host-cap {} ({}), below the disk's {:g} ({})", cap.text, why, l.limit.value, l.source)
                     : fmt::format("host cap of the VM size {} ({}; {}), below the disk's {:g} ({})", cap.vm_size, why, cap.source, l.limit.value, l.source);
      l.limit.value = host;
      said.push_back(line);
    }
  bound.clear();
  for (const auto& s : said) bound += (bound.empty() ? "" : "; ") + s;
}

}  // namespace diskvet::suites
