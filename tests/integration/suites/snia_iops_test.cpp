// The snia-iops suite end to end on a 4Kn loop device, its rounds shortened to 0.1 s: purge,
// preconditioning, rounds of the 56 cells, the table in the JSON and text reports; the 512-byte
// cells skipped with the reason.
#include <gtest/gtest.h>

#include "suites/builtin_files.hpp"
#include "tests/support/run_lab.hpp"

using diskvet::testing::RunLab;
namespace json = boost::json;

class SniaIops : public RunLab {};

TEST_F(SniaIops, RunsTheMatrixOnAFourKnDeviceAndReportsItsTable) {
  SKIP_UNLESS_LOOP_DEVICES();
  std::string dev = make_loop(64u << 20, 4096);
  ASSERT_FALSE(dev.empty());
  std::string text;
  for (const auto& f : diskvet::suites::builtin_suite_files())
    if (f.name == "snia-iops") text = f.text;
  ASSERT_FALSE(text.empty());
  // The shipped suite, with rounds of 0.1 s instead of a minute, a window of 2 rounds and at most 2.
  json::object suite = json::parse(text).as_object();
  json::object& ss = suite["steady_state"].as_object();
  ss["round"] = "0.1s";
  ss["window_rounds"] = 2;
  ss["max_rounds"] = 2;
  ss["required"] = false;
  write_file("suite.json", json::serialize(suite));

  int rc = diskvet("run -q --suite " + file("suite.json").string() + " --profile none --device " + dev + " --destroy-data " + dev + " --out " +
                   file("r.json").string());
  ASSERT_EQ(rc, 0) << log();
  auto r = report("r.json");
  const auto& d = r.at("devices").as_array().at(0);
  EXPECT_TRUE(d.at("precondition").at("completed").as_bool());
  const auto& t = d.at("tests").as_array().at(0);
  const auto& m = t.at("matrix");
  EXPECT_EQ(m.at("rounds_run").to_number<int>(), 2);
  const auto& cells = m.at("cells").as_array();
  ASSERT_EQ(cells.size(), 56u);
  size_t skipped = 0;
  for (const auto& c : cells) {
    if (c.at("bs").to_number<int>() == 512) {
      ++skipped;
      EXPECT_NE(json::value_to<std::string>(c.at("skipped")).find("4096"), std::string::npos);
      continue;
    }
    EXPECT_GT(c.at("iops").to_number<double>(), 0) << json::serialize(c);
  }
  EXPECT_EQ(skipped, 7u);
  EXPECT_TRUE(m.at("steady_state").at("measurement_window").is_object());
  // Host CPU beside the job threads'.
  EXPECT_TRUE(d.at("cpu").at("host").at("softirq_pct").is_number());

  ASSERT_EQ(diskvet("report " + file("r.json").string()), 0) << log();
  std::string out = log();
  for (const char* want : {"iops: IOPS by block size and read/write mix", "100/0", "0/100", "1 MiB", "skipped: 512-byte blocks",
                           "CPU per I/O counts only the job threads"})
    EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
  ASSERT_EQ(diskvet("report " + file("r.json").string() + " --html " + file("r.html").string()), 0) << log();
  std::ifstream html(file("r.html"));
  std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("IOPS by block size, one line per read/write mix"), std::string::npos);
}
