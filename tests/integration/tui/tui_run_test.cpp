// Runs through tmux on a scratch loop device: the confirmation refuses a wrong answer and writes
// nothing; the quick suite reaches a results screen whose verdict is the JSON report's; a resize to
// 80x24 mid-run keeps the layout (the live IOPS, MB/s and p99 line too), and an abort still writes
// the (partial) report.
#include <boost/json.hpp>

#include <unistd.h>

#include <regex>

#include "tmux_session.hpp"

using namespace tui_lab;
using diskvet::testing::LoopDevice;

namespace {

// From the devices screen to the confirmation of the quick suite on `dev` with profile `profile`.
void select_quick_on(const TmuxSession& t, const std::string& dev, const std::string& profile) {
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  ASSERT_TRUE(t.move_to_device(dev)) << t.screen();
  t.send("Space");
  ASSERT_TRUE(t.wait_for("1 selected for a write test")) << t.screen();
  t.send("n");
  ASSERT_TRUE(t.wait_for(" diskvet | Suite and profile")) << t.screen();
  for (int i = 0; i < 10 && !t.wait_for("> quick", 0.3); ++i) t.send("Down");
  ASSERT_TRUE(t.wait_for("> quick")) << t.screen();
  for (int i = 0; i < 10 && !t.wait_for("Profile: " + profile + " ", 0.3); ++i) t.send("p");
  ASSERT_TRUE(t.wait_for("Profile: " + profile + " ")) << t.screen();
  t.send("Enter");
  ASSERT_TRUE(t.wait_for(" diskvet | Confirm what will be destroyed")) << t.screen();
  ASSERT_TRUE(t.wait_for(dev + "  ")) << t.screen();
}

std::string report_path_on(const std::string& screen) {
  std::smatch m;
  std::regex re("Report saved: (\\S+)");
  return std::regex_search(screen, m, re) ? m[1].str() : std::string();
}

boost::json::object load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return boost::json::parse(s.str()).as_object();
}

}  // namespace

TEST(TuiRun, TheConfirmationRefusesAWrongAnswerAndNothingIsWritten) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  LoopDevice loop("tui-confirm", 64u << 20);
  ASSERT_TRUE(loop.valid()) << loop.why();
  TmuxSession t("tui --duration 0.3s", 120, 40);
  select_quick_on(t, loop.path(), "sanity");
  // A loop device has no serial: the answer is YES, and anything else is refused.
  ASSERT_TRUE(t.wait_for("no serial: type YES")) << t.screen();
  t.send("YEP", true);
  t.send("Enter");
  EXPECT_TRUE(t.wait_for(loop.path() + ": type YES to destroy its data; nothing was started")) << t.screen();
  EXPECT_TRUE(t.wait_for(" diskvet | Confirm what will be destroyed")) << t.screen();
  t.send("Escape");
  ASSERT_TRUE(t.wait_for(" diskvet | Suite and profile")) << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
  EXPECT_TRUE(all_zero(loop.backing())) << "not one byte was written to the refused device";
}

// A cloud family's parameters typed on the suite screen: a wrong one is shown in the parser's words
// and blocks the confirmation; a right one is the profile the confirmation leads to.
TEST(TuiRun, ACloudFamilysParametersAreTypedCheckedAndShown) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  LoopDevice loop("tui-params", 64u << 20);
  ASSERT_TRUE(loop.valid()) << loop.why();
  TmuxSession t("tui --duration 0.3s", 120, 40);
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  ASSERT_TRUE(t.move_to_device(loop.path())) << t.screen();
  t.send("Space");
  ASSERT_TRUE(t.wait_for("1 selected for a write test")) << t.screen();
  t.send("n");
  ASSERT_TRUE(t.wait_for(" diskvet | Suite and profile")) << t.screen();
  for (int i = 0; i < 20 && !t.wait_for("Profile: aws-gp3 ", 0.3); ++i) t.send("p");
  ASSERT_TRUE(t.wait_for("Profile: aws-gp3 ")) << t.screen();
  t.send("e");
  t.send("iops=fast", true);
  t.send("Enter");
  EXPECT_TRUE(t.wait_for("iops=fast is not a number")) << t.screen();
  t.send("Escape");
  t.send("Enter");
  EXPECT_TRUE(t.wait_for("profile aws-gp3:iops=fast: ")) << t.screen();
  EXPECT_TRUE(t.wait_for(" diskvet | Suite and profile")) << t.screen();
  t.send("e");
  for (int i = 0; i < 4; ++i) t.send("BSpace");
  t.send("6000,mbps=250", true);
  t.send("Enter");
  ASSERT_TRUE(t.wait_for("Profile: aws-gp3:iops=6000,mbps=250 ")) << t.screen();
  EXPECT_TRUE(t.wait_for("AWS EBS gp3")) << t.screen();  // what the family promises this disk
  t.send("Enter");
  ASSERT_TRUE(t.wait_for(" diskvet | Confirm what will be destroyed")) << t.screen();
  t.send("Escape");
  ASSERT_TRUE(t.wait_for(" diskvet | Suite and profile")) << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

TEST(TuiRun, AQuickSuiteRunsToAResultsScreenWhoseVerdictMatchesTheJsonReport) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  LoopDevice loop("tui-quick", 256u << 20);
  ASSERT_TRUE(loop.valid()) << loop.why();
  TmuxSession t("tui --duration 0.3s --report-dir " + std::string(fs::temp_directory_path()), 160, 45);
  select_quick_on(t, loop.path(), "sanity");
  t.send("YES", true);
  t.send("Enter");
  ASSERT_TRUE(t.wait_for(" diskvet | Run")) << t.screen();
  EXPECT_TRUE(t.wait_for("ETA", 60)) << t.screen();
  ASSERT_TRUE(t.wait_for("VERDICT: ", 300)) << t.screen();
  std::string screen = t.screen();
  std::string path = report_path_on(screen);
  ASSERT_FALSE(path.empty()) << screen;
  ASSERT_TRUE(fs::exists(path)) << path;
  auto doc = load(path);
  std::string verdict(doc.at("verdict").as_string());
  EXPECT_NE(screen.find("VERDICT: " + verdict + "  exit code " + std::to_string(doc.at("exit_code").to_number<int>())), std::string::npos)
      << "report says " << verdict << ":\n" << screen;
  EXPECT_EQ(verdict, "PASS") << "the sanity floors hold on a RAM-backed loop device";
  for (const auto& dj : doc.at("devices").as_array()) {
    const auto& d = dj.as_object();
    std::string dev(d.at("path").as_string());
    bool shown = false;
    for (const auto& l : t.lines())
      if (l.find(dev + " ") != std::string::npos && l.find(std::string(d.at("verdict").as_string())) != std::string::npos) shown = true;
    EXPECT_TRUE(shown) << dev << " " << d.at("verdict") << "\n" << screen;
  }
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
  fs::remove(path);
}

TEST(TuiRun, ResizingToEightyByTwentyFourMidRunKeepsTheLayoutAndAbortStillWritesTheReport) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  LoopDevice loop("tui-resize", 256u << 20);
  ASSERT_TRUE(loop.valid()) << loop.why();
  // A folder of its own for the report, found there: at 80 columns a long path is cut on the screen.
  const fs::path reports = fs::temp_directory_path() / ("diskvet-tui-resize-" + std::to_string(::getpid()));
  fs::create_directories(reports);
  struct Remove {
    fs::path p;
    ~Remove() { fs::remove_all(p); }
  } remove_reports{reports};
  TmuxSession t("tui --duration 2s --report-dir " + reports.string(), 132, 40);
  select_quick_on(t, loop.path(), "sanity");
  t.send("YES", true);
  t.send("Enter");
  ASSERT_TRUE(t.wait_for(" diskvet | Run")) << t.screen();
  ASSERT_TRUE(t.wait_for("ETA", 60)) << t.screen();
  t.resize(80, 24);
  auto at_80x24 = [&] {
    auto l = t.lines();
    return l.size() == 24 && l[0].rfind(" diskvet | Run", 0) == 0 && l[23].find("a abort") != std::string::npos;
  };
  for (int i = 0; i < 100 && !at_80x24(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto rows = t.lines();
  ASSERT_TRUE(at_80x24()) << t.screen();
  bool log_box = false, bar = false;
  for (const auto& l : rows) {
    EXPECT_LE(l.size(), 80u * 3) << l;  // line-drawing characters are 3 bytes in UTF-8
    log_box |= l.find(" log ") != std::string::npos;
    bar |= l.find("%") != std::string::npos && l.find("[") != std::string::npos;
  }
  EXPECT_TRUE(log_box) << t.screen();
  EXPECT_TRUE(bar) << t.screen();
  EXPECT_NE(rows[1].find("Suite quick on 1 device"), std::string::npos) << t.screen();
  // The live rates line, p99 of the last interval included, fits in 80 columns.
  const std::regex live("IOPS +[0-9.]+[kM]? +[0-9.]+ MB/s +p99 +[0-9.]+(us|ms|s) +mean +[0-9.]+(us|ms|s)");
  bool rates = false;
  for (int i = 0; i < 300 && !rates; ++i) {
    rates = std::regex_search(t.screen(), live);
    if (!rates) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(rates) << t.screen();

  t.send("a");
  ASSERT_TRUE(t.wait_for("Stop the run now?")) << t.screen();
  t.send("y");
  ASSERT_TRUE(t.wait_for("VERDICT: ", 120)) << t.screen();
  EXPECT_TRUE(t.wait_for("aborted: partial report")) << t.screen();
  EXPECT_NE(t.screen().find("Report saved: "), std::string::npos) << t.screen();
  std::vector<fs::path> saved;
  for (const auto& e : fs::directory_iterator(reports))
    if (e.path().extension() == ".json") saved.push_back(e.path());
  ASSERT_EQ(saved.size(), 1u) << t.screen();
  const std::string path = saved[0].string();
  auto doc = load(path);
  EXPECT_FALSE(doc.at("aborted").is_null()) << "the report says it is partial";
  EXPECT_EQ(doc.at("exit_code").to_number<int>(), 3);
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 3) << "the TUI ends with the last run's exit code, as 'diskvet run' would";
  fs::remove(path);
}
