// Cloud volume profiles: the published tables and formulas, their parameters, the host cap, and
// which family --profile auto picks from what the guest sees.
#include <gtest/gtest.h>

#include <algorithm>

#include "suites/cloud_identity.hpp"
#include "suites/cloud_profile.hpp"
#include "suites/profile_match.hpp"
#include "suites/suite.hpp"
#include "suites/vm_size.hpp"

namespace {

using namespace diskvet::suites;
using diskvet::runner::Limit;
using diskvet::runner::MetricKind;

constexpr uint64_t kGiB = 1ull << 30;

const MetricLimit* find_limit(const Profile& p, const std::string& test, MetricKind kind) {
  for (const auto& t : p.tests)
    if (t.test_id == test)
      for (const auto& l : t.limits)
        if (l.metric.kind == kind) return &l;
  return nullptr;
}

CloudSpec spec(const std::string& text, uint64_t size_bytes = 0) {
  auto a = parse_profile_args(text);
  EXPECT_TRUE(a) << a.error().message();
  auto s = cloud_spec(*a, size_bytes);
  EXPECT_TRUE(s) << text << ": " << s.error().message();
  return s ? *s : CloudSpec{};
}

std::string refusal(const std::string& text, uint64_t size_bytes = 0) {
  auto a = parse_profile_args(text);
  if (!a) return a.error().message();
  auto s = cloud_spec(*a, size_bytes);
  return s ? std::string() : s.error().message();
}

TEST(CloudProfile, ParsesFamilyAndParameters) {
  auto a = parse_profile_args("aws-gp3:iops=6000,mbps=250");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "aws-gp3");
  EXPECT_EQ(a->params.at("iops"), "6000");
  EXPECT_EQ(a->params.at("mbps"), "250");
  EXPECT_TRUE(parse_profile_args("sanity")->params.empty());
  for (const char* bad : {"aws-gp3:", "aws-gp3:iops", "aws-gp3:=5", "aws-gp3:iops=1,iops=2", "aws-gp3:iops=1,,mbps=2"})
    EXPECT_FALSE(parse_profile_args(bad)) << bad;
}

TEST(CloudProfile, AzurePremiumTierFromTheTableOrInferredFromTheSize) {
  auto p30 = spec("azure-premium-ssd:tier=p30");
  EXPECT_EQ(p30.iops, 5000);
  EXPECT_EQ(p30.mbps, 200);
  EXPECT_NE(p30.iops_source.find("ms.date 2023-03-16"), std::string::npos);
  EXPECT_TRUE(p30.notes.empty());
  EXPECT_FALSE(p30.burst_iops) << "P30 has no credit burst";
  // 200 GiB is billed and provisioned as the next tier up: P15 (256 GiB).
  auto p15 = spec("azure-premium-ssd", 200 * kGiB);
  EXPECT_EQ(p15.iops, 1100);
  EXPECT_EQ(p15.mbps, 125);
  ASSERT_FALSE(p15.notes.empty());
  EXPECT_NE(p15.notes[0].find("inferred"), std::string::npos);
  EXPECT_EQ(p15.burst_iops, 3500);
  EXPECT_EQ(p15.burst_s, 1800);
  EXPECT_EQ(spec("azure-premium-ssd", 4 * kGiB).iops, 120);
  EXPECT_EQ(spec("azure-premium-ssd:tier=P80").mbps, 900);
  EXPECT_EQ(spec("azure-standard-ssd:tier=E60").iops, 2000);
  EXPECT_NE(refusal("azure-premium-ssd:tier=P99"), "");
  EXPECT_NE(refusal("azure-premium-ssd", 40000 * kGiB), "");
  EXPECT_NE(refusal("azure-premium-ssd"), "") << "no size and no tier";
}

TEST(CloudProfile, Gp3BaselineAndProvisionedInMiB) {
  auto base = spec("aws-gp3");
  EXPECT_EQ(base.iops, 3000);
  EXPECT_NEAR(base.mbps, 131.072, 1e-9);  // 125 MiB/s
  auto prov = spec("aws-gp3:iops=6000,mbps=250");
  EXPECT_EQ(prov.iops, 6000);
  EXPECT_NEAR(prov.mbps, 262.144, 1e-9);
  EXPECT_NE(prov.iops_source.find("command line"), std::string::npos);
  // 0.25 MiB/s per provisioned IOPS: 1000 MiB/s needs 4000 IOPS.
  EXPECT_NE(refusal("aws-gp3:iops=3000,mbps=1000"), "");
  EXPECT_EQ(refusal("aws-gp3:iops=4000,mbps=1000"), "");
  EXPECT_NE(refusal("aws-gp3:iops=2000"), "");
  EXPECT_NE(refusal("aws-gp3:iops=fast"), "");
  EXPECT_NE(refusal("aws-gp3:throughput=5"), "");
}

TEST(CloudProfile, Gp2ScalesWithSizeAndBursts) {
  auto small = spec("aws-gp2", 100 * kGiB);
  EXPECT_EQ(small.iops, 300);
  EXPECT_EQ(small.burst_iops, 3000);
  EXPECT_EQ(small.burst_s, 1800);
  auto big = spec("aws-gp2:size=2000");
  EXPECT_EQ(big.iops, 6000);
  EXPECT_FALSE(big.burst_iops) << "a baseline above 3,000 IOPS has nothing to burst to";
  EXPECT_EQ(spec("aws-gp2:size=16t").iops, 16000);
}

TEST(CloudProfile, ProvisionedFamiliesNeedTheirNumbers) {
  EXPECT_NE(refusal("aws-io2"), "");
  EXPECT_EQ(spec("aws-io2:iops=20000").iops, 20000);
  EXPECT_EQ(spec("aws-io2:iops=20000").mbps, 0) << "io2 throughput is not judged unless given";
  EXPECT_NE(refusal("aws-io1:iops=100000"), "");
  EXPECT_NE(refusal("azure-ultra:iops=1000"), "");
  EXPECT_NE(refusal("azure-ultra:iops=1000,mbps=500"), "") << "more than 256 KiB/s per IOPS";
  EXPECT_EQ(spec("azure-ultra:iops=4000,mbps=500").lat_mean_us, 1000);
  EXPECT_EQ(spec("azure-premium-ssd-v2").iops, 3000);
  EXPECT_EQ(spec("azure-premium-ssd-v2:iops=80000,mbps=1200").mbps, 1200);
}

TEST(CloudProfile, GcpPerGiB) {
  auto bal = spec("gcp-pd-balanced", 500 * kGiB);
  EXPECT_DOUBLE_EQ(bal.iops, 3000);
  EXPECT_NEAR(bal.mbps, 0.28 * 500 * 1.048576, 1e-9);
  EXPECT_DOUBLE_EQ(spec("gcp-pd-ssd:size=100").iops, 3000);
  EXPECT_FALSE(spec("gcp-pd-ssd:size=100").lat_mean_us) << "no latency where the sources disagree";
}

TEST(CloudProfile, ProfileLimitsFollowTheSpec) {
  Profile p = cloud_profile(spec("azure-premium-ssd:tier=P10"));  // 500 IOPS, 100 MB/s
  const MetricLimit* iops = find_limit(p, "max-iops", MetricKind::iops);
  ASSERT_TRUE(iops);
  EXPECT_EQ(iops->limit.bound, Limit::Bound::min);
  EXPECT_EQ(iops->limit.value, 500);
  // 500 IOPS of 64 KiB are 32.8 MB/s: below 100 MB/s, the IOPS limit binds the throughput test.
  const MetricLimit* bw = find_limit(p, "max-throughput-64k", MetricKind::bw_mbps);
  ASSERT_TRUE(bw);
  EXPECT_NEAR(bw->limit.value, 500 * 65536 / 1e6, 1e-9);
  EXPECT_NE(bw->source.find("64 KiB"), std::string::npos);
  const MetricLimit* lat = find_limit(p, "latency-qd1", MetricKind::lat_mean_us);
  ASSERT_TRUE(lat);
  EXPECT_EQ(lat->limit.bound, Limit::Bound::max);
  EXPECT_NE(lat->source.find("design target"), std::string::npos);
  // A throughput limit lower than the IOPS allows binds 4 KiB I/Os too.
  Profile t = cloud_profile(spec("azure-ultra:iops=100000,mbps=200"));
  EXPECT_NEAR(find_limit(t, "max-iops", MetricKind::iops)->limit.value, 200e6 / 4096, 1e-6);
  EXPECT_EQ(find_limit(cloud_profile(spec("aws-gp3:iops=16000,mbps=125")), "max-iops", MetricKind::iops)->limit.value, 16000);
  EXPECT_FALSE(find_limit(cloud_profile(spec("aws-io1:iops=1000")), "max-throughput-64k", MetricKind::bw_mbps));
}

TEST(CloudProfile, HostCapBindsOnlyWhereItIsLower) {
  auto cap = parse_host_cap("iops=1920,mbps=22.5");
  ASSERT_TRUE(cap);
  Profile p = cloud_profile(spec("azure-premium-ssd:tier=P30"));  // 5000 IOPS, 200 MB/s
  std::string bound;
  apply_host_cap(p, *cap, bound);
  EXPECT_EQ(find_limit(p, "max-iops", MetricKind::iops)->limit.value, 1920);
  EXPECT_NE(find_limit(p, "max-iops", MetricKind::iops)->source.find("host cap"), std::string::npos);
  EXPECT_DOUBLE_EQ(find_limit(p, "max-throughput-64k", MetricKind::bw_mbps)->limit.value, 22.5);
  EXPECT_NE(bound.find("max-iops"), std::string::npos);
  EXPECT_EQ(find_limit(p, "latency-qd1", MetricKind::lat_mean_us)->limit.value, 10000) << "latency is not a host cap's business";
  // A cap above the disk's limits binds nothing.
  Profile q = cloud_profile(spec("azure-premium-ssd:tier=P10"));
  apply_host_cap(q, *parse_host_cap("iops=12800"), bound);
  EXPECT_TRUE(bound.empty()) << bound;
  EXPECT_EQ(find_limit(q, "max-iops", MetricKind::iops)->limit.value, 500);
  for (const char* bad : {"", "iops=", "iops=-1", "cpu=4", "iops=1e999"}) EXPECT_FALSE(parse_host_cap(bad)) << bad;
}

TEST(CloudProfile, AVmSizeIsAHostCapFromTheShippedTableAndTheReasonNamesIt) {
  auto cap = parse_host_cap("azure:Standard_B2ms");
  ASSERT_TRUE(cap) << cap.error().message();
  EXPECT_EQ(*cap->iops, 1920);
  EXPECT_DOUBLE_EQ(*cap->mbps, 22.5);
  EXPECT_EQ(cap->vm_size, "Azure Standard_B2ms");
  EXPECT_NE(cap->source.find("sizes-b-series-burstable"), std::string::npos) << cap->source;
  Profile p = cloud_profile(spec("azure-premium-ssd:tier=P30"));  // 5000 IOPS, 200 MB/s
  std::string bound;
  apply_host_cap(p, *cap, bound);
  EXPECT_EQ(find_limit(p, "max-iops", MetricKind::iops)->limit.value, 1920);
  EXPECT_NE(bound.find("the VM size Azure Standard_B2ms (1920 IOPS) binds"), std::string::npos) << bound;
  EXPECT_NE(find_limit(p, "max-iops", MetricKind::iops)->source.find("VM size Azure Standard_B2ms"), std::string::npos);
  // Case and Azure's "Standard_" prefix do not matter; the B2s is its own, smaller size.
  EXPECT_EQ(*parse_host_cap("azure:b2ms")->iops, 1920);
  EXPECT_EQ(*parse_host_cap("azure:Standard_B2s")->iops, 1280);
  EXPECT_DOUBLE_EQ(*parse_host_cap("azure:Standard_B2s")->mbps, 15);
  EXPECT_EQ(*parse_host_cap("azure:Standard_D8s_v5")->iops, 12800);
  // AWS: the EBS-optimized baseline, not the 30-minute maximum.
  auto m5 = parse_host_cap("aws:m5.large");
  ASSERT_TRUE(m5);
  EXPECT_EQ(*m5->iops, 3600);
  EXPECT_DOUBLE_EQ(*m5->mbps, 81.25);
  EXPECT_EQ(m5->vm_size, "AWS m5.large");
  EXPECT_EQ(*parse_host_cap("aws:m6i.8xlarge")->iops, 40000);
  // Unknown sizes and providers are refused, saying what there is.
  for (const char* bad : {"azure:Standard_Z99", "aws:m5", "gcp:n2-standard-4", "azure:", ":m5.large", "aws:m5.large,iops=5"})
    EXPECT_FALSE(parse_host_cap(bad)) << bad;
  auto gcp = parse_host_cap("gcp:n2-standard-4");
  EXPECT_NE(gcp.error().message().find("Google Cloud"), std::string::npos) << gcp.error().message();
  // Every row of the table has numbers and a source.
  for (const char* provider : {"azure", "aws"})
    for (const auto& n : vm_size_names(provider)) {
      auto vm = find_vm_size(provider, n.substr(n.find(':') + 1));
      ASSERT_TRUE(vm) << n;
      EXPECT_GT(vm->iops, 0) << n;
      EXPECT_GT(vm->mbps, 0) << n;
      EXPECT_FALSE(vm->source.empty()) << n;
    }
}

TEST(CloudProfile, TheBurstSuiteMeasuresOnlyAfterEveryPublishedBurstIsSpent) {
  auto suite = builtin_suite("cloud-burst");
  ASSERT_TRUE(suite) << suite.error().message();
  ASSERT_FALSE(suite->tests.empty());
  ASSERT_EQ(suite->tests[0].id, "max-iops") << "the burst is spent by the first test";
  const double ramp_s = suite->tests[0].workloads.at(0).ramp_s;
  for (const auto& s : {spec("azure-premium-ssd:tier=P1"), spec("azure-premium-ssd:tier=P20"), spec("azure-standard-ssd:tier=E30"),
                        spec("aws-gp2", 100 * kGiB)}) {
    ASSERT_TRUE(s.burst_s) << s.title;
    EXPECT_GT(ramp_s, *s.burst_s) << s.title << ": the measurement window opens inside the burst";
  }
  // Every test the cloud profiles judge is in the suite: nothing is left NOT EVALUATED.
  Profile p = cloud_profile(spec("azure-premium-ssd:tier=P10"));
  for (const auto& t : p.tests)
    EXPECT_TRUE(std::any_of(suite->tests.begin(), suite->tests.end(), [&](const auto& st) { return st.id == t.test_id; })) << t.test_id;
}

diskvet::devices::Device disk(const std::string& vendor, const std::string& model, uint64_t size_bytes) {
  diskvet::devices::Device d;
  d.vendor = vendor;
  d.model = model;
  d.size_bytes = size_bytes;
  return d;
}

TEST(CloudIdentity, AutoPicksTheFamilyOrAsksForIt) {
  std::string reason;
  auto az = match_profile(disk("Msft", "Virtual Disk", 1024 * kGiB), {}, reason);
  ASSERT_TRUE(az) << reason;
  EXPECT_EQ(az->name, "azure-premium-ssd");
  EXPECT_EQ(find_limit(*az, "max-iops", MetricKind::iops)->limit.value, 5000);
  EXPECT_NE(reason.find("inferred"), std::string::npos) << reason;
  EXPECT_NE(reason.find("P30"), std::string::npos) << reason;
  EXPECT_TRUE(match_profile(disk("", "MSFT NVMe Accelerator v1.0", 128 * kGiB), {}, reason));

  EXPECT_FALSE(match_profile(disk("", "Amazon Elastic Block Store", 100 * kGiB), {}, reason));
  EXPECT_NE(reason.find("--profile aws-gp3"), std::string::npos) << reason;
  EXPECT_FALSE(match_profile(disk("Google", "PersistentDisk", 100 * kGiB), {}, reason));
  EXPECT_NE(reason.find("gcp-pd-balanced"), std::string::npos) << reason;
  EXPECT_FALSE(match_profile(disk("", "nvme_card-pd", 100 * kGiB), {}, reason));
  EXPECT_EQ(identify_cloud(disk("ATA", "Samsung SSD 870", kGiB)).provider, CloudProvider::none);
  EXPECT_EQ(identify_cloud(disk("Msft", "Virtual CD/ROM", kGiB)).provider, CloudProvider::none);
}

TEST(CloudIdentity, NamedFamiliesAreSizedFromTheDevice) {
  std::string reason;
  auto p = resolve_profile_for("aws-gp2", disk("", "Amazon Elastic Block Store", 500 * kGiB), reason);
  ASSERT_TRUE(p) << p.error().message();
  EXPECT_EQ(find_limit(*p, "max-iops", MetricKind::iops)->limit.value, 1500);
  EXPECT_NE(reason.find("aws-gp2"), std::string::npos);
  EXPECT_FALSE(resolve_profile_for("sanity:iops=5", disk("", "x", kGiB), reason)) << "only cloud families take parameters";
  EXPECT_TRUE(resolve_profile_for("sanity", disk("", "x", kGiB), reason));
}

}  // namespace
