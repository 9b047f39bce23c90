// sysfs attribute reading: trimmed text, numbers, and failures reported as nullopt, never thrown.
#include "devices/sysfs.hpp"

#include <gtest/gtest.h>

#include "tests/unit/support/fake_sysfs.hpp"

namespace diskvet::devices {
namespace {

TEST(Sysfs, TrimsAttributeText) {
  test::FakeSysfs fake;
  fake.write("a", "  write back \n");
  EXPECT_EQ(read_attr(fake.sysfs() / "a"), "write back");
  EXPECT_FALSE(read_attr(fake.sysfs() / "missing"));
}

TEST(Sysfs, ReportsAFailingReadAsMissingInsteadOfThrowing) {
  // read(2) on a directory fails (EISDIR) the way some sysfs attributes fail with ENXIO.
  test::FakeSysfs fake;
  EXPECT_NO_THROW({
    EXPECT_FALSE(read_attr(fake.sysfs()));
    EXPECT_EQ(read_raw(fake.sysfs()), "");
    EXPECT_FALSE(read_u64(fake.sysfs()));
  });
}

TEST(Sysfs, ParsesNumbersStrictly) {
  test::FakeSysfs fake;
  fake.write("n", "4096\n");
  fake.write("bad", "4096 sectors\n");
  EXPECT_EQ(read_u64(fake.sysfs() / "n"), 4096u);
  EXPECT_FALSE(read_u64(fake.sysfs() / "bad"));
}

TEST(Sysfs, PicksTheSelectedChoice) {
  EXPECT_EQ(selected_choice("none [mq-deadline] kyber bfq"), "mq-deadline");
  EXPECT_EQ(selected_choice("none"), "none");
}

}  // namespace
}  // namespace diskvet::devices
