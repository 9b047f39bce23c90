// run_command, the tests' one way to run a program: what it returns for each way a program ends,
// what it captures, and that nothing passes through a shell.
#include "tests/support/run_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace diskvet::testing {
namespace {

namespace fs = std::filesystem;

TEST(RunCommand, ReturnsTheExitCodeAndWhatEachStreamSaid) {
  auto r = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.exit_after_interrupt_ms, -1);
}

TEST(RunCommand, MergesTheStreamsInTheOrderWritten) {
  auto r = run_command({"sh", "-c", "echo a; echo b >&2; echo c"}, {.merge_output = true});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "a\nb\nc\n");
  EXPECT_EQ(r.err, "");
}

TEST(RunCommand, ReadsBothStreamsWhenEachHoldsMoreThanAPipe) {
  // 1 MiB on each stream, stderr first: reading one stream to its end before the other would
  // leave the child blocked on a full stderr pipe.
  auto r = run_command({"sh", "-c", "head -c 1048576 /dev/zero >&2; head -c 1048576 /dev/zero"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.size(), 1048576u);
  EXPECT_EQ(r.err.size(), 1048576u);
}

TEST(RunCommand, PassesEachWordAsItIsWithoutAShell) {
  auto r = run_command({"printf", "%s|", "a b", "$HOME", "'q'", "*", "x;y"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "a b|$HOME|'q'|*|x;y|");
}

TEST(RunCommand, ReportsAKillingSignalAs128PlusItsNumber) {
  auto r = run_command({"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
}

TEST(RunCommand, Says127ForAProgramThatIsNotThere) {
  auto r = run_command({"diskvet-no-such-program"});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.err.find("diskvet-no-such-program"), std::string::npos) << r.err;
  EXPECT_EQ(run_command({"/nonexistent/diskvet-no-such-program"}).exit_code, 127);
}

TEST(RunCommand, InterruptsAProgramStillRunningAfterTheGivenTime) {
  auto r = run_command({"sleep", "60"}, {.interrupt_after_ms = 50});
  EXPECT_EQ(r.exit_code, 128 + SIGINT);
  EXPECT_GE(r.exit_after_interrupt_ms, 0);
}

TEST(RunCommand, InterruptsAProgramWhoseOutputGoesToAFile) {
  const fs::path log = fs::temp_directory_path() / ("diskvet-run-command-" + std::to_string(::getpid()) + ".log");
  auto r = run_command({"sh", "-c", "trap 'echo interrupted; exit 3' INT; echo started; while :; do sleep 0.01; done"},
                       {.interrupt_after_ms = 1000, .output_file = log.string()});
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  EXPECT_EQ(r.exit_code, 3) << text.str();
  EXPECT_EQ(text.str(), "started\ninterrupted\n");
  EXPECT_EQ(r.out, "");
  EXPECT_GE(r.exit_after_interrupt_ms, 0);
}

TEST(RunCommand, LeavesAProgramThatEndedBeforeTheInterruptAlone) {
  auto r = run_command({"true"}, {.interrupt_after_ms = 60000});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.exit_after_interrupt_ms, -1);
}

TEST(RunCommand, WritesBothStreamsToTheOutputFileReplacingWhatWasThere) {
  const fs::path log = fs::temp_directory_path() / ("diskvet-run-command-file-" + std::to_string(::getpid()) + ".log");
  std::ofstream(log) << "an older and longer log\n";
  auto r = run_command({"sh", "-c", "echo a; echo b >&2"}, {.output_file = log.string()});
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(text.str(), "a\nb\n");
  EXPECT_EQ(r.out + r.err, "");
}

TEST(RunCommand, RunsInTheWorkingDirectoryGiven) {
  const fs::path dir = fs::canonical(fs::temp_directory_path());
  auto r = run_command({"pwd"}, {.working_dir = dir.string()});
  EXPECT_EQ(r.out, dir.string() + "\n");
}

TEST(RunCommand, GivesTheProgramNoInput) {
  auto r = run_command({"cat"});  // would wait on the test's own input otherwise
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
}

TEST(RunCommand, SplitsACommandLineIntoWordsAtSpaces) {
  EXPECT_EQ(words("  run --suite quick  --device /dev/loop3 "), (std::vector<std::string>{"run", "--suite", "quick", "--device", "/dev/loop3"}));
  EXPECT_TRUE(words("").empty());
  EXPECT_TRUE(words("   ").empty());
}

TEST(RunCommand, FindsProgramsInPath) {
  EXPECT_TRUE(have_program("sh"));
  EXPECT_FALSE(have_program("diskvet-no-such-program"));
}

}  // namespace
}  // namespace diskvet::testing
