// Screens rendered into a Canvas at 80x24 and larger: what an operator reads, without a terminal.
#include <gtest/gtest.h>

#include "tests/unit/tui/tui_fixture.hpp"
#include "tui/run_model.hpp"

using namespace diskvet::tui;
using namespace tui_fixture;

TEST(TuiDevicesView, EachRowShowsPathModelSerialSizeHealthAndProtectedOrFree) {
  Model m = model_with_devices();
  std::string out = render_text(m);
  std::string root = line_with(out, "/dev/vda");
  EXPECT_NE(root.find("PROTECTED"), std::string::npos) << out;
  EXPECT_NE(root.find("ROOT0001"), std::string::npos) << out;
  EXPECT_NE(root.find("20GiB"), std::string::npos) << out;
  std::string nvme = line_with(out, "/dev/nvme0n1");
  EXPECT_NE(nvme.find("Samsung"), std::string::npos) << out;
  EXPECT_NE(nvme.find("S4EWNX0R1234~"), std::string::npos) << "a long serial is cut with ~:\n" << out;
  EXPECT_NE(nvme.find(" ok "), std::string::npos) << out;
  EXPECT_NE(nvme.find("free"), std::string::npos) << out;
  std::string loop = line_with(out, "/dev/loop7");
  EXPECT_NE(loop.find("unknown"), std::string::npos) << "health without a source is unknown, never ok:\n" << out;
  EXPECT_NE(loop.find("free"), std::string::npos) << out;
}

TEST(TuiDevicesView, TheBoxUnderTheTableGivesEveryProtectionReasonInFull) {
  Model m = model_with_devices();
  std::string out = render_text(m);
  EXPECT_NE(out.find("PROTECTED: never written by diskvet"), std::string::npos) << out;
  EXPECT_NE(out.find("- backs the running root filesystem (/)"), std::string::npos) << out;
  EXPECT_NE(out.find("- has a gpt partition table (3 partitions)"), std::string::npos) << out;
}

TEST(TuiDevicesView, SelectionIsMarkedAndTheStatusLineSaysWhyAProtectedDeviceWasRefused) {
  Model m = model_with_devices();
  handle_key(m, Key{Key::space});
  handle_key(m, Key{Key::down});
  handle_key(m, Key{Key::space});
  std::string out = render_text(m);
  EXPECT_EQ(line_with(out, "/dev/vda").rfind("[ ]", 2), 1u) << out;
  EXPECT_EQ(line_with(out, "/dev/nvme0n1").find("[x]"), 1u) << out;
  EXPECT_NE(out.find("1 selected for a write test"), std::string::npos) << out;
}

TEST(TuiDevicesView, RefusalIsShownOnTheStatusLine) {
  Model m = model_with_devices();
  handle_key(m, Key{Key::space});
  auto rows = lines(render_text(m));
  ASSERT_EQ(rows.size(), 24u);
  EXPECT_NE(rows[22].find("/dev/vda cannot be chosen for a write test"), std::string::npos) << rows[22];
}

TEST(TuiLayout, EveryScreenFitsEightyByTwentyFourWithTitleAndKeyHints) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  for (ScreenId s : {ScreenId::devices, ScreenId::details, ScreenId::suites, ScreenId::confirm, ScreenId::run, ScreenId::results,
                     ScreenId::result_detail}) {
    m.screen = s;
    if (s == ScreenId::confirm) go_to_confirm(m);
    if (s == ScreenId::results || s == ScreenId::result_detail) m.results = Results{};
    auto rows = lines(render_text(m));
    ASSERT_EQ(rows.size(), 24u);
    EXPECT_EQ(rows[0].rfind(" diskvet | ", 0), 0u) << rows[0];
    EXPECT_NE(rows[23].find("help"), std::string::npos) << "screen " << static_cast<int>(s) << ": " << rows[23];
    for (const auto& r : rows) EXPECT_LE(r.size(), 80u);
  }
}

TEST(TuiRunScreen, TheRatesLineShowsP99BesideIopsAndMbPerSecondWithinEightyColumns) {
  Model m = model_with_devices();
  begin_run(m, "quick", {"/dev/nvme0n1"});
  runner::SampleEvent e;
  e.device = "/dev/nvme0n1";
  e.sample.dur_s = 1;
  e.sample.ios = {123456, 0};
  e.sample.bytes = {123456ull * 4096, 0};
  e.sample.lat_sum_ns = {123456ull * 250000, 0};
  e.sample.total_lat_p99_ns = 987654;
  apply_event(m, e);
  std::string row = line_with(render_text(m), "IOPS   123.5k");
  EXPECT_NE(row.find("505.7 MB/s"), std::string::npos) << row;
  EXPECT_NE(row.find("p99  987.7us"), std::string::npos) << row;
  EXPECT_NE(row.find("mean  250.0us"), std::string::npos) << row;
  EXPECT_LE(row.size(), 80u);
}

TEST(TuiLayout, AWiderTerminalGivesTheModelColumnMoreRoom) {
  Model m = model_with_devices();
  EXPECT_EQ(line_with(render_text(m, 80, 24), "/dev/nvme0n1").find("Samsung SSD 980 PRO 1TB"), std::string::npos);
  EXPECT_NE(line_with(render_text(m, 132, 40), "/dev/nvme0n1").find("Samsung SSD 980 PRO 1TB"), std::string::npos);
  auto rows = lines(render_text(m, 132, 40));
  ASSERT_EQ(rows.size(), 40u);
  EXPECT_NE(rows[39].find("q quit"), std::string::npos) << "key hints stay on the last row after a resize";
}

TEST(TuiLayout, ATerminalSmallerThanEightyByTwentyFourIsToldSo) {
  Model m = model_with_devices();
  std::string out = render_text(m, 70, 20);
  EXPECT_NE(out.find("the terminal is 70x20; make it at least 80x24"), std::string::npos) << out;
}

TEST(TuiLayout, BoxesDrawnAsGlyphsReadAsAsciiWithoutALineSet) {
  Canvas c(10, 3);
  c.frame(0, 0, 10, 3);
  EXPECT_EQ(c.row_text(0), "+--------+");
  EXPECT_EQ(c.row_text(1), "|        |");
  EXPECT_EQ(c.at(0, 0).glyph, Glyph::ul) << "the screen may draw the terminal's own corner";
}

TEST(TuiLayout, TextIsClippedAtTheRightEdgeAndControlCharactersBlanked) {
  Canvas c(5, 1);
  EXPECT_EQ(c.text(3, 0, "a\tbcdef"), 10);
  EXPECT_EQ(c.row_text(0), "   a") << "the tab is a blank at column 4, the rest is cut";
  c.text(0, 0, "x\ty");
  EXPECT_EQ(c.row_text(0), "x ya");
}

TEST(TuiDetailsView, ShowsIdentityQueueFactsProtectionAndHealth) {
  Model m = model_with_devices();
  handle_key(m, Key{Key::enter});
  std::string out = render_text(m);
  EXPECT_NE(out.find("ROOT0001"), std::string::npos) << out;
  EXPECT_NE(out.find("non-rotational"), std::string::npos) << out;
  EXPECT_NE(line_with(out, "PROTECTED").find("backs the running root filesystem"), std::string::npos) << out;
  EXPECT_NE(out.find("unknown (no SMART/health source)"), std::string::npos) << out;
}

TEST(TuiSuitesView, ListsSuitesWithExpectedDurationForTheChosenDevices) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  handle_key(m, Key::of('n'));
  std::string out = render_text(m);
  EXPECT_NE(line_with(out, "quick").find("about 1m00s"), std::string::npos) << "30 s per device, two devices:\n" << out;
  EXPECT_NE(line_with(out, "burnin").find("placeholder"), std::string::npos) << out;
  EXPECT_NE(out.find("Profile: auto"), std::string::npos) << out;
}

TEST(TuiConfirmView, ListsWhatWillBeDestroyedAndWhatIsNeverOffered) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  handle_key(m, Key::of('n'));
  handle_key(m, Key{Key::enter});
  type(m, "12");
  std::string out = render_text(m);
  EXPECT_NE(out.find("ALL DATA ON THEM WILL BE DESTROYED"), std::string::npos) << out;
  EXPECT_NE(out.find("type the last 6 characters of its serial: [12    ]"), std::string::npos) << out;
  EXPECT_NE(out.find("no serial: type YES: ["), std::string::npos) << out;
  EXPECT_NE(line_with(out, "/dev/vda:").find("PROTECTED: backs the running root filesystem"), std::string::npos) << out;
  EXPECT_EQ(line_with(out, "/dev/vda").find("serial ROOT0001"), std::string::npos) << "a protected device is never in the list to destroy";
}

TEST(TuiConfirmView, AsksForTheNamespaceOfAControllerWithSeveral) {
  Model m;
  set_devices(m, {nvme_namespace(1), nvme_namespace(2)});
  m.suites = {SuiteChoice{"quick", "Seconds per test", false, true, 30}};
  handle_key(m, Key{Key::down});
  handle_key(m, Key{Key::space});
  handle_key(m, Key::of('n'));
  handle_key(m, Key{Key::enter});
  std::string out = render_text(m);
  EXPECT_NE(out.find("type its serial's last 6 characters, then /2 (namespace 2)"), std::string::npos) << out;
}
