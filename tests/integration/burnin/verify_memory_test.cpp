// Verification of 32 TB drives within the run's memory budget: two sparse 32 TiB loop devices
// verified in parallel at 4 KiB (4 bytes per block would be 32 GiB each) keep the process's peak
// memory within 512 MiB plus the tool's own, and the report says what the coarser state
// guarantees; a budget that cannot hold the state is refused before anything is written.
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "burnin_lab.hpp"

using namespace burnin_lab;

namespace {

constexpr uint64_t k32TiB = 32ull << 40;
constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kBudget = 512 * kMiB;

// A run that verifies from the first write: 70/30 random 4K with verify-behind over the whole device.
constexpr const char* kSuite = R"({"name": "burnin-32t", "probe": {"enabled": false},
  "defaults": {"bs": "4k", "verify": true, "iodepth": 16, "ramp": "0s"},
  "tests": [{"id": "random-verify-behind", "workloads": [{"rw": "randrw", "rwmixread": 70, "numjobs": 2, "runtime": "2s"}]}]})";

struct Child {
  int exit_code = -1;  // 128 + N when killed by signal N
  uint64_t max_rss_bytes = 0;
};

// Runs diskvet with its address space capped (so a state of 4 bytes per block fails to allocate
// rather than taking the machine's memory) and returns its exit code and peak resident memory.
Child run_capped(const std::vector<std::string>& args, const std::string& log, uint64_t address_space_bytes) {
  pid_t pid = fork();
  if (pid == 0) {
    rlimit lim{address_space_bytes, address_space_bytes};
    setrlimit(RLIMIT_AS, &lim);
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(DISKVET_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(DISKVET_BINARY, argv.data());
    _exit(127);
  }
  Child c;
  int st = 0;
  rusage ru{};
  if (wait4(pid, &st, 0, &ru) != pid) return c;
  c.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  c.max_rss_bytes = static_cast<uint64_t>(ru.ru_maxrss) * 1024;
  return c;
}

}  // namespace

class VerifyMemory : public Lab {};

TEST_F(VerifyMemory, TwoThirtyTwoTbDrivesInParallelStayWithinTheRunsBudgetAndTheReportSaysWhatIsGuaranteed) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string a = make_loop(k32TiB), b = make_loop(k32TiB);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  write_file("s.json", kSuite);
  Child c = run_capped({"run", "--suite", file("s.json").string(), "--device", a, "--device", b, "--destroy-data", a, "--destroy-data", b,
                        "--parallel", "-q", "--out", file("r.json").string()},
                       file("diskvet.log").string(), 4ull << 30);
  ASSERT_EQ(c.exit_code, 0) << log();
  auto r = report("r.json");
  uint64_t state_total = 0;
  for (const auto& dv : r.at("devices").as_array()) {
    const auto& v = dv.at("verify").as_object();
    EXPECT_EQ(v.at("mismatches").to_number<uint64_t>(), 0u) << v;
    EXPECT_GT(v.at("blocks_verified").to_number<uint64_t>(), 0u) << "verify-behind reads checked the writes";
    const auto& st = v.at("state").as_object();
    EXPECT_EQ(st.at("mode").as_string(), "regional");
    EXPECT_EQ(st.at("blocks").to_number<uint64_t>(), k32TiB / 4096);
    EXPECT_EQ(st.at("budget_bytes").to_number<uint64_t>(), kBudget / 2) << "devices in parallel share the run's budget";
    EXPECT_GT(st.at("region_blocks").to_number<uint64_t>(), 1u);
    EXPECT_NE(std::string(st.at("guarantee").as_string()).find("lost write"), std::string::npos);
    state_total += st.at("memory_bytes").to_number<uint64_t>();
  }
  EXPECT_LE(state_total, kBudget);
  // The process's peak: both states (only the pages the writes reached) plus the tool's own
  // memory (binary, rings, buffers, histograms: well under 128 MiB on a small run).
  EXPECT_LE(c.max_rss_bytes, kBudget + 128 * kMiB) << "peak RSS " << c.max_rss_bytes / kMiB << " MiB";
  std::string text = log();
  EXPECT_NE(text.find("budget, regional: one record per"), std::string::npos) << text;
}

TEST_F(VerifyMemory, ABudgetThatCannotHoldTheStateIsRefusedBeforeAnythingIsWritten) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(k32TiB);
  ASSERT_FALSE(dev.empty());
  write_file("s.json", kSuite);
  int rc = diskvet("run --suite " + file("s.json").string() + " --device " + dev + " --destroy-data " + dev +
                   " --verify-memory 4m -q --out " + file("r.json").string());
  EXPECT_EQ(rc, 2) << log();
  EXPECT_NE(log().find("--verify-memory"), std::string::npos) << log();
  EXPECT_NE(log().find("needs at least"), std::string::npos) << log();
  EXPECT_NE(log().find("budget, 4MiB"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(file("r.json")));
  for (uint64_t off : {uint64_t{0}, k32TiB / 2, k32TiB - 4096}) EXPECT_EQ(header_word(0, off, 0), 0u) << "written at " << off;
}
