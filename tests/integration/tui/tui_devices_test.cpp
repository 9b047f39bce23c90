// The devices screen through tmux: a scratch loop device is free and the root disk PROTECTED, a
// protected device cannot be chosen for a write test, monochrome vt100 with ASCII lines, q exits 0.
#include "tmux_session.hpp"

using namespace tui_lab;
using diskvet::testing::LoopDevice;

TEST(TuiDevices, TheListShowsAScratchLoopDeviceAsFreeAndMarksTheRootDiskProtected) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  LoopDevice loop("tui-list", 64u << 20);
  ASSERT_TRUE(loop.valid()) << loop.why();
  const std::string root = root_disk();
  ASSERT_FALSE(root.empty()) << "cannot tell which disk holds /";
  TmuxSession t("tui", 120, 40);
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  ASSERT_TRUE(t.move_to_device(loop.path())) << t.screen();
  EXPECT_TRUE(t.wait_for("free: can be chosen for a write test")) << t.screen();
  t.send("Home");
  ASSERT_TRUE(t.move_to_device(root)) << t.screen();
  EXPECT_TRUE(t.wait_for("PROTECTED: never written by diskvet")) << t.screen();
  bool row_protected = false;
  for (const auto& l : t.lines())
    if (l.find(root + " ") != std::string::npos && l.find("PROTECTED") != std::string::npos) row_protected = true;
  EXPECT_TRUE(row_protected) << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

TEST(TuiDevices, TheListFollowsALoopDeviceAttachedAndDetachedWhileItIsShown) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  TmuxSession t("tui", 120, 60);
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  std::string path;
  {
    LoopDevice loop("tui-hotplug", 48u << 20);
    ASSERT_TRUE(loop.valid()) << loop.why();
    path = loop.path();
    EXPECT_TRUE(t.wait_for(path + " ", 20)) << "the new device appears without a key:\n" << t.screen();
    EXPECT_TRUE(t.wait_for("48MiB", 20)) << t.screen();
  }
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = t.screen().find("48MiB") == std::string::npos;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(gone) << "the detached device leaves the list:\n" << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

TEST(TuiDevices, AProtectedDeviceCannotBeChosenForAWriteTest) {
  SKIP_UNLESS_TMUX();
  SKIP_UNLESS_ROOT();
  const std::string root = root_disk();
  ASSERT_FALSE(root.empty());
  TmuxSession t("tui", 120, 40);
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  ASSERT_TRUE(t.move_to_device(root)) << t.screen();
  t.send("Space");
  EXPECT_TRUE(t.wait_for(root + " cannot be chosen for a write test: PROTECTED")) << t.screen();
  for (const auto& l : t.lines()) {
    if (l.find(root + " ") != std::string::npos && l.find("PROTECTED") != std::string::npos) {
      EXPECT_EQ(l.find("[x]"), std::string::npos) << l;
    }
  }
  EXPECT_TRUE(t.wait_for("0 selected for a write test")) << t.screen();
  t.send("n");
  EXPECT_TRUE(t.wait_for("select at least one free device first")) << "nothing selected, so no suite screen:\n" << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

TEST(TuiDevices, QExitsWithCodeZeroAndGivesTheTerminalBack) {
  SKIP_UNLESS_TMUX();
  TmuxSession t("tui", 80, 24);
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
  EXPECT_TRUE(t.terminal_restored()) << t.stty_after();
}

TEST(TuiDevices, ABareDiskvetOnATerminalStartsTheTui) {
  SKIP_UNLESS_TMUX();
  TmuxSession t("", 80, 24);
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

TEST(TuiDevices, SigtermAndACrashStillGiveTheTerminalBack) {
  SKIP_UNLESS_TMUX();
  {
    TmuxSession t("tui", 80, 24);
    ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
    t.signal_diskvet(SIGTERM);
    EXPECT_EQ(t.wait_exit(), 128 + SIGTERM);
    EXPECT_TRUE(t.terminal_restored()) << t.stty_after();
  }
  {
    TmuxSession t("tui", 80, 24);
    ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
    t.signal_diskvet(SIGSEGV);
    EXPECT_EQ(t.wait_exit(), 128 + SIGSEGV) << "the crash handler restores the terminal, then dies of the same signal";
    EXPECT_TRUE(t.terminal_restored()) << t.stty_after();
  }
}

TEST(TuiDevices, AMonochromeVt100ConsoleGetsAReadableScreenWithAsciiLines) {
  SKIP_UNLESS_TMUX();
  TmuxSession t("tui --ascii", 80, 24, "TERM=vt100");
  ASSERT_TRUE(t.wait_for(" diskvet | Devices")) << t.screen();
  EXPECT_TRUE(t.wait_for("PATH")) << t.screen();
  bool ascii_box = false;
  for (const auto& l : t.lines()) ascii_box |= l.rfind("+-", 0) == 0;
  EXPECT_TRUE(ascii_box) << t.screen();
  t.send("?");
  EXPECT_TRUE(t.wait_for("any key closes this help")) << t.screen();
  t.send("x");
  t.send("q");
  EXPECT_EQ(t.wait_exit(), 0);
}

TEST(TuiDevices, WithoutATerminalItSaysSoAndExitsTwo) {
  auto r = diskvet::testing::run_command({DISKVET_BIN, "tui"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("needs a terminal"), std::string::npos) << r.err;
}
