// The NVMe passthrough backend's ring: 128-byte entries and 32-byte completions always, and polled
// completions (IORING_SETUP_IOPOLL) exactly when the workload asks for hipri. Set up on /dev/null:
// a ring and its registrations need no NVMe device (the VM lab sends the commands).
#include "runner/io/backend_uring_cmd.hpp"

#include <fcntl.h>

#include <gtest/gtest.h>

#include "common/fd.hpp"

using namespace diskvet;
using namespace diskvet::runner;

namespace {

// Whether this kernel (or its sandbox) lets the process set up a ring at all.
bool rings_allowed() {
  io_uring ring{};
  if (io_uring_queue_init(1, &ring, 0) < 0) return false;
  io_uring_queue_exit(&ring);
  return true;
}

}  // namespace

TEST(UringCmdBackend, PollsItsCompletionsExactlyWhenAskedForHipri) {
  if (!rings_allowed()) GTEST_SKIP() << "io_uring is not available here";
  UniqueFd fd(::open("/dev/null", O_RDWR | O_CLOEXEC));
  ASSERT_TRUE(fd.valid());
  constexpr unsigned kPassthrough = IORING_SETUP_SQE128 | IORING_SETUP_CQE32;

  auto polled = UringCmdBackend::create(fd.get(), 4, 4096, 1, 512, 1, /*iopoll=*/true);
  ASSERT_TRUE(polled) << polled.error().message();
  EXPECT_EQ(polled->setup_flags() & (kPassthrough | IORING_SETUP_IOPOLL), kPassthrough | IORING_SETUP_IOPOLL);

  auto interrupted = UringCmdBackend::create(fd.get(), 4, 4096, 1, 512, 1, /*iopoll=*/false);
  ASSERT_TRUE(interrupted) << interrupted.error().message();
  EXPECT_EQ(interrupted->setup_flags() & kPassthrough, kPassthrough);
  EXPECT_EQ(interrupted->setup_flags() & IORING_SETUP_IOPOLL, 0u);
}
