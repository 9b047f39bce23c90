// RunSession::start builds its plan in runner/plan, as `diskvet run` does: the confirmed identity is
// checked again while the gate holds the device, and a device that is not the one the operator
// confirmed is refused with nothing written and no report file left in the report directory.
#include "tui/run_session.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "suites/suite.hpp"
#include "tests/support/lab.hpp"
#include "tests/support/loop_lab.hpp"

namespace fs = std::filesystem;
using namespace diskvet;
namespace lab = diskvet::testing;

TEST(TuiRunSessionOnDevice, ADeviceThatIsNotTheOneConfirmedIsRefusedUnderTheGatesHoldAndNothingIsWritten) {
  if (!lab::is_root()) GTEST_SKIP() << "needs root: loop devices";
  lab::LoopDevice loop("tui-session", 64u << 20);
  ASSERT_TRUE(loop.valid()) << loop.why();
  const std::string before = lab::sha256_of(loop.backing());
  lab::ScratchFile scratch("tui-session-reports");
  const fs::path dir = scratch.path() + ".d";
  fs::create_directories(dir);
  auto quick = suites::builtin_suite("quick");
  ASSERT_TRUE(quick.ok()) << quick.error().message();
  tui::TuiOptions options;
  options.report_dir = dir.string();
  // The operator confirmed a device with a serial; a loop device has none: another device is there.
  const std::vector<tui::ConfirmedDevice> confirmed{tui::ConfirmedDevice{loop.path(), "S4EWNX0R123456", "", 0}};
  auto session = tui::RunSession::start(*quick, confirmed, "none", options);
  ASSERT_FALSE(session.ok()) << "a device that is not the one confirmed must not run";
  EXPECT_EQ(session.error().kind, ErrorKind::safety) << session.error().message();
  EXPECT_NE(session.error().message().find("S4EWNX0R123456"), std::string::npos) << session.error().message();
  EXPECT_EQ(lab::sha256_of(loop.backing()), before) << "not one byte was written";
  EXPECT_TRUE(fs::is_empty(dir)) << "the report's temporary file was removed";
  fs::remove_all(dir);
}
