// Keys on the model: selection refuses protected devices, consent needs the serial's end or YES,
// q asks while a run is going.
#include <gtest/gtest.h>

#include "tests/unit/tui/tui_fixture.hpp"

using namespace diskvet::tui;
using namespace tui_fixture;

namespace {
Key key(Key::Code c) { return Key{c}; }
}  // namespace

TEST(TuiKeys, SpaceSelectsAFreeDeviceAndRefusesAProtectedOneSayingWhy) {
  Model m = model_with_devices();
  ASSERT_EQ(m.devices[0].device.path, "/dev/vda");
  handle_key(m, key(Key::space));
  EXPECT_FALSE(m.devices[0].selected);
  EXPECT_NE(m.status.find("/dev/vda cannot be chosen for a write test"), std::string::npos) << m.status;
  EXPECT_NE(m.status.find("backs the running root filesystem"), std::string::npos) << m.status;
  handle_key(m, key(Key::down));
  handle_key(m, key(Key::space));
  EXPECT_TRUE(m.devices[1].selected);
  handle_key(m, key(Key::space));
  EXPECT_FALSE(m.devices[1].selected) << "space toggles";
}

TEST(TuiKeys, ASelectsEveryFreeDeviceAndNoProtectedOne) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  EXPECT_FALSE(m.devices[0].selected);
  EXPECT_TRUE(m.devices[1].selected);
  EXPECT_TRUE(m.devices[2].selected);
  EXPECT_EQ(m.selected().size(), 2u);
}

TEST(TuiKeys, NextNeedsASelectedDevice) {
  Model m = model_with_devices();
  handle_key(m, Key::of('n'));
  EXPECT_EQ(m.screen, ScreenId::devices);
  EXPECT_NE(m.status.find("select at least one free device"), std::string::npos);
  handle_key(m, Key::of('a'));
  handle_key(m, Key::of('n'));
  EXPECT_EQ(m.screen, ScreenId::suites);
}

TEST(TuiKeys, EnterShowsDetailsAndEscapeReturns) {
  Model m = model_with_devices();
  handle_key(m, key(Key::enter));
  EXPECT_EQ(m.screen, ScreenId::details);
  handle_key(m, key(Key::escape));
  EXPECT_EQ(m.screen, ScreenId::devices);
}

TEST(TuiKeys, APlaceholderSuiteCannotBeConfirmed) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  handle_key(m, Key::of('n'));
  handle_key(m, key(Key::down));
  handle_key(m, key(Key::enter));
  EXPECT_EQ(m.screen, ScreenId::suites);
  EXPECT_NE(m.status.find("placeholder"), std::string::npos);
}

TEST(TuiKeys, ConfirmationRefusesAWrongSerialAndStartsOnlyWhenEveryFieldMatches) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  handle_key(m, Key::of('n'));
  handle_key(m, key(Key::enter));
  ASSERT_EQ(m.screen, ScreenId::confirm);
  ASSERT_EQ(m.confirm.size(), 2u);
  EXPECT_EQ(m.confirm[0].expected(), "123456");
  EXPECT_EQ(m.confirm[1].expected(), "YES");
  type(m, "123455");
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::none);
  EXPECT_NE(m.confirm_error.find("not the end of its serial"), std::string::npos) << m.confirm_error;
  EXPECT_EQ(m.screen, ScreenId::confirm);
  handle_key(m, key(Key::backspace));
  type(m, "6");
  EXPECT_TRUE(m.confirm[0].matches());
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::none) << "the loop device still needs YES";
  EXPECT_EQ(m.confirm_cursor, 1u);
  EXPECT_NE(m.confirm_error.find("type YES"), std::string::npos);
  type(m, "yes");
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::none) << "YES is case-sensitive";
  for (int i = 0; i < 3; ++i) handle_key(m, key(Key::backspace));
  type(m, "YES");
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::start_run);
  EXPECT_TRUE(m.confirm_error.empty());
}

TEST(TuiKeys, ANamespaceOfAControllerWithSeveralIsConfirmedByItsSerialAndNsid) {
  Model m;
  set_devices(m, {nvme_namespace(1), nvme_namespace(2)});
  m.suites = {SuiteChoice{"quick", "Seconds per test", false, true, 30}};
  handle_key(m, key(Key::down));
  handle_key(m, key(Key::space));  // namespace 2 only
  handle_key(m, Key::of('n'));
  handle_key(m, key(Key::enter));
  ASSERT_EQ(m.screen, ScreenId::confirm);
  ASSERT_EQ(m.confirm.size(), 1u);
  EXPECT_EQ(m.confirm[0].path, "/dev/nvme0n2");
  EXPECT_EQ(m.confirm[0].expected(), "123456/2");
  type(m, "123456");
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::none) << "the serial's end alone names both namespaces";
  EXPECT_NE(m.confirm_error.find("ending in /2"), std::string::npos) << m.confirm_error;
  type(m, "/1");
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::none) << "the other namespace's id";
  handle_key(m, key(Key::backspace));
  type(m, "2");
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::start_run);
}

TEST(TuiKeys, TheOnlyNamespaceOfAControllerIsConfirmedByTheSerialsEnd) {
  Model m;
  devices::Device only = nvme_namespace(1);
  only.consent_id = only.serial;  // discovery: the serial names it alone
  set_devices(m, {only});
  m.suites = {SuiteChoice{"quick", "Seconds per test", false, true, 30}};
  handle_key(m, key(Key::space));
  handle_key(m, Key::of('n'));
  handle_key(m, key(Key::enter));
  ASSERT_EQ(m.confirm.size(), 1u);
  EXPECT_EQ(m.confirm[0].expected(), "123456");
}

TEST(TuiKeys, QLettersAreTypedOnTheConfirmationScreenNotQuit) {
  Model m = model_with_devices();
  handle_key(m, key(Key::down));
  handle_key(m, key(Key::space));
  handle_key(m, Key::of('n'));
  handle_key(m, key(Key::enter));
  ASSERT_EQ(m.screen, ScreenId::confirm);
  EXPECT_EQ(handle_key(m, Key::of('q')), Action::none);
  EXPECT_EQ(m.confirm[0].typed, "q");
}

TEST(TuiKeys, QQuitsAtOnceWhenIdleAndAsksWhileARunIsGoing) {
  Model idle = model_with_devices();
  EXPECT_EQ(handle_key(idle, Key::of('q')), Action::quit);

  Model m = model_with_devices();
  m.running = true;
  m.screen = ScreenId::run;
  EXPECT_EQ(handle_key(m, Key::of('q')), Action::none);
  EXPECT_EQ(m.dialog, Dialog::quit);
  EXPECT_EQ(handle_key(m, Key::of('n')), Action::none);
  EXPECT_EQ(m.dialog, Dialog::none);
  EXPECT_FALSE(m.abort_requested);
  handle_key(m, Key::of('q'));
  EXPECT_EQ(handle_key(m, Key::of('y')), Action::abort_run) << "quitting a run aborts it first, so the partial report is written";
  EXPECT_TRUE(m.quit_after_run);
  EXPECT_TRUE(m.abort_requested);
}

TEST(TuiKeys, AbortAsksForConfirmation) {
  Model m = model_with_devices();
  m.running = true;
  m.screen = ScreenId::run;
  EXPECT_EQ(handle_key(m, Key::of('a')), Action::none);
  EXPECT_EQ(m.dialog, Dialog::abort);
  EXPECT_EQ(handle_key(m, Key::of('x')), Action::none);
  EXPECT_EQ(m.dialog, Dialog::abort) << "only y or n answers";
  EXPECT_EQ(handle_key(m, Key::of('y')), Action::abort_run);
  EXPECT_FALSE(m.quit_after_run);
}

TEST(TuiKeys, QuestionMarkOpensHelpAndAnyKeyClosesIt) {
  Model m = model_with_devices();
  handle_key(m, Key::of('?'));
  EXPECT_EQ(m.dialog, Dialog::help);
  EXPECT_EQ(handle_key(m, Key::of('q')), Action::none) << "the key that closes help does nothing else";
  EXPECT_EQ(m.dialog, Dialog::none);
}

TEST(TuiKeys, RefreshKeepsTheSelectionOfDevicesStillPresentAndFree) {
  Model m = model_with_devices();
  handle_key(m, Key::of('a'));
  auto nvme = nvme_disk();
  nvme.is_protected = true;  // someone mounted it meanwhile
  nvme.protection_reasons = {"is mounted at /mnt"};
  set_devices(m, {root_disk(), nvme, loop_disk()});
  EXPECT_FALSE(m.devices[1].selected) << "a device that became protected is deselected";
  EXPECT_TRUE(m.devices[2].selected);
}

// A cloud family's parameters are typed on the suite screen and checked by the command line's own
// parser: a wrong one is shown and keeps the run from being confirmed; a right one is what runs.
TEST(TuiKeys, ACloudFamilysParametersAreTypedCheckedByTheCliParserAndChosen) {
  Model m = model_with_devices();
  m.profiles = {"auto", "sanity", "aws-gp3", "azure-premium-ssd", "none"};
  handle_key(m, Key::of('a'));
  handle_key(m, Key::of('n'));
  ASSERT_EQ(m.screen, ScreenId::suites);
  handle_key(m, Key::of('e'));
  EXPECT_FALSE(m.editing_params) << "auto takes no parameters";
  EXPECT_NE(m.status.find("takes no parameters"), std::string::npos) << m.status;
  handle_key(m, Key::of('p'));
  handle_key(m, Key::of('p'));
  ASSERT_EQ(m.chosen_profile(), "aws-gp3");
  handle_key(m, Key::of('e'));
  ASSERT_TRUE(m.editing_params);
  type(m, "iops=fast");
  EXPECT_EQ(m.screen, ScreenId::suites) << "letters are typed, not keys";
  EXPECT_EQ(handle_key(m, key(Key::enter)), Action::none);
  EXPECT_TRUE(m.editing_params) << "a wrong parameter keeps the field open";
  EXPECT_NE(m.profile_error.find("iops=fast is not a number"), std::string::npos) << m.profile_error;
  EXPECT_NE(render_text(m).find("iops=fast is not a number"), std::string::npos) << render_text(m);
  // Esc leaves it as typed; confirming is refused with the parser's words, nothing asked for.
  handle_key(m, key(Key::escape));
  handle_key(m, key(Key::enter));
  EXPECT_EQ(m.screen, ScreenId::suites);
  EXPECT_NE(m.status.find("aws-gp3:iops=fast"), std::string::npos) << m.status;
  handle_key(m, Key::of('e'));
  for (int i = 0; i < 4; ++i) handle_key(m, key(Key::backspace));
  type(m, "6000,mbps=250");
  handle_key(m, key(Key::enter));
  EXPECT_FALSE(m.editing_params);
  EXPECT_TRUE(m.profile_error.empty()) << m.profile_error;
  EXPECT_EQ(m.chosen_profile(), "aws-gp3:iops=6000,mbps=250");
  EXPECT_NE(render_text(m).find("Profile: aws-gp3:iops=6000,mbps=250"), std::string::npos) << render_text(m);
  handle_key(m, key(Key::enter));
  EXPECT_EQ(m.screen, ScreenId::confirm);
  // Another family clears them; a family sized from the device is checked against each chosen one.
  handle_key(m, key(Key::escape));
  handle_key(m, Key::of('p'));
  EXPECT_EQ(m.chosen_profile(), "azure-premium-ssd");
  handle_key(m, Key::of('e'));
  type(m, "tier=P99");
  handle_key(m, key(Key::enter));
  EXPECT_NE(m.profile_error.find("has no tier 'P99'"), std::string::npos) << m.profile_error;
}
