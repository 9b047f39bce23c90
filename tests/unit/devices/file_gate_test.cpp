// The file gate: the decision on what was opened (pure), and the open itself on a scratch directory:
// links are never followed, new files are created O_EXCL, existing files need consent naming them.
#include "devices/file_gate.hpp"

#include "common/fd.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace diskvet;
using namespace diskvet::devices;
namespace fs = std::filesystem;

namespace {

constexpr FileId kDataId{0x801, 4242};

OpenedFile regular(bool created = false) { return OpenedFile{S_IFREG | 0644, created, 4096, {}, false, kDataId}; }

// Consent whose ids resolved (as Consent's constructor would, when diskvet started) to these inodes.
Consent resolved_to(std::vector<std::pair<std::string, FileId>> ids) {
  Consent c;
  for (auto& [text, file] : ids) {
    c.ids.push_back(text);
    c.resolved.push_back(ConsentId{text, text.starts_with("/"), true, {}, file, {}});
  }
  return c;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class FileGateOpen : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("diskvet-file-gate-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "data.bin", std::ios::binary) << kData;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static constexpr const char* kData = "someone's data, byte for byte";
  fs::path dir_;
};

}  // namespace

TEST(FileGateDecision, AFileThisProcessCreatedNeedsNoConsent) {
  EXPECT_TRUE(decide_file_write("scratch.img", regular(true), Consent{}));
}

TEST(FileGateDecision, AnExistingFileIsRefusedWithoutConsentAndSaysWhichIdToAdd) {
  auto r = decide_file_write("data.bin", regular(), Consent{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::safety);
  EXPECT_NE(r.error().message().find("--destroy-data data.bin"), std::string::npos) << r.error().message();
}

TEST(FileGateDecision, AllUnprotectedDoesNotCoverAnExistingFile) {
  auto r = decide_file_write("data.bin", regular(), Consent{{"all-unprotected"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("--destroy-data data.bin"), std::string::npos) << r.error().message();
}

TEST(FileGateDecision, AnExistingFileIsWrittenWhenAConsentIdResolvedToItsInode) {
  EXPECT_TRUE(decide_file_write("data.bin", regular(), resolved_to({{"data.bin", kDataId}})));
  EXPECT_TRUE(decide_file_write("data.bin", regular(), resolved_to({{"/x/other-name", kDataId}}))) << "a hard link is the same file";
  EXPECT_FALSE(decide_file_write("data.bin", regular(), resolved_to({{"data.bin", {0x801, 4243}}})));
  EXPECT_FALSE(decide_file_write("data.bin", regular(), resolved_to({{"data.bin", {0x802, 4242}}}))) << "same inode number, other file system";
  EXPECT_FALSE(decide_file_write("data.bin", regular(), resolved_to({{"data.bin", {}}}))) << "an id that named nothing";
}

// The path swapped between a check and the open: what was opened is a link or a device node, and
// that is what is decided on, whatever the consent.
TEST(FileGateDecision, ALinkOrDeviceNodeFoundOnTheDescriptorIsRefusedWhateverTheConsent) {
  Consent all = resolved_to({{"data.bin", kDataId}, {"all-unprotected", {}}});
  for (mode_t mode : {S_IFLNK | 0777, S_IFBLK | 0660, S_IFCHR | 0660, S_IFDIR | 0755, S_IFIFO | 0644, S_IFSOCK | 0644}) {
    for (bool created : {false, true}) {
      OpenedFile f{static_cast<mode_t>(mode), created, 0, {}, false, kDataId};
      auto r = decide_file_write("data.bin", f, all);
      ASSERT_FALSE(r) << std::oct << mode;
      EXPECT_EQ(r.error().kind, ErrorKind::safety);
      EXPECT_NE(r.error().what.find("PROTECTED"), std::string::npos) << r.error().what;
    }
  }
}

TEST(FileGateDecision, ALoopBackingFileOrSwapFileIsRefusedWhateverTheConsent) {
  OpenedFile loop = regular();
  loop.backs_loop = "loop7";
  auto r = decide_file_write("data.bin", loop, resolved_to({{"data.bin", kDataId}}));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("backs loop device /dev/loop7"), std::string::npos) << r.error().what;
  OpenedFile swap = regular();
  swap.swap = true;
  r = decide_file_write("data.bin", swap, resolved_to({{"data.bin", kDataId}}));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("swap"), std::string::npos) << r.error().what;
}

TEST_F(FileGateOpen, CreatesAMissingFileExclusively) {
  auto g = open_file_for_write(path("new.img"), Consent{}, 1 << 20);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_TRUE(g->created);
  EXPECT_TRUE(fs::is_regular_file(path("new.img")));
}

TEST_F(FileGateOpen, RefusesAnExistingFileWithoutConsentAndLeavesItAlone) {
  auto g = open_file_for_write(path("data.bin"), Consent{}, 1 << 20);
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().kind, ErrorKind::safety);
  EXPECT_EQ(slurp(path("data.bin")), kData);
  EXPECT_EQ(fs::file_size(path("data.bin")), std::string(kData).size());
}

TEST_F(FileGateOpen, OpensAnExistingFileItsConsentNames) {
  auto g = open_file_for_write(path("data.bin"), Consent{{path("data.bin")}}, 0);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_FALSE(g->created);
  struct stat a{}, b{};
  ASSERT_EQ(::fstat(g->fd.get(), &a), 0);
  ASSERT_EQ(::stat(path("data.bin").c_str(), &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
}

TEST_F(FileGateOpen, NeverFollowsALinkEvenWithConsentNamingIt) {
  fs::create_symlink(path("data.bin"), path("link"));
  for (uint64_t create : {uint64_t{0}, uint64_t{1} << 20}) {
    auto g = open_file_for_write(path("link"), Consent{{path("link"), path("data.bin")}}, create);
    ASSERT_FALSE(g) << "create " << create;
    EXPECT_NE(g.error().what.find("symbolic link"), std::string::npos) << g.error().message();
  }
  EXPECT_EQ(slurp(path("data.bin")), kData);
}

TEST_F(FileGateOpen, ADanglingLinkIsNeitherFollowedNorItsTargetCreated) {
  fs::create_symlink(path("elsewhere.img"), path("dangling"));
  auto g = open_file_for_write(path("dangling"), Consent{}, 1 << 20);
  ASSERT_FALSE(g);
  EXPECT_FALSE(fs::exists(path("elsewhere.img")));
}

TEST_F(FileGateOpen, RefusesADeviceNodeAndADirectory) {
  fs::create_directory(path("dir"));
  for (std::string p : {std::string("/dev/null"), path("dir")}) {
    auto g = open_file_for_write(p, Consent{{p, "all-unprotected"}}, 1 << 20);
    ASSERT_FALSE(g) << p;
    EXPECT_EQ(g.error().kind, ErrorKind::safety) << g.error().message();
  }
}

// A directory symlink flipped between the consent and the open: consent resolved through the link
// to a/data.bin, the gate opens the same words and finds b/data.bin, a different inode.
TEST_F(FileGateOpen, ConsentNamesTheFileItResolvedToNotTheWordsOpenedLater) {
  fs::create_directory(path("a"));
  fs::create_directory(path("b"));
  std::ofstream(path("a/data.bin"), std::ios::binary) << "a's data";
  std::ofstream(path("b/data.bin"), std::ios::binary) << "b's data";
  fs::create_directory_symlink(path("a"), path("dir"));
  Consent consent{{path("dir/data.bin")}};
  fs::remove(path("dir"));
  fs::create_directory_symlink(path("b"), path("dir"));
  auto g = open_file_for_write(path("dir/data.bin"), consent, 0);
  ASSERT_FALSE(g) << "wrote b/data.bin on consent given for a/data.bin";
  EXPECT_EQ(g.error().kind, ErrorKind::safety);
  EXPECT_EQ(slurp(path("b/data.bin")), "b's data");
}

TEST_F(FileGateOpen, ConsentThroughAHardLinkNamesTheSameFile) {
  fs::create_hard_link(path("data.bin"), path("other-name"));
  auto g = open_file_for_write(path("data.bin"), Consent{{path("other-name")}}, 0);
  EXPECT_TRUE(g) << g.error().message();
}

// /proc/self/fd/N names whatever this process has open as N, at the moment it is looked up: the
// gate's own handle on its target, by then. Such an id consents to nothing.
TEST_F(FileGateOpen, AConsentIdThroughProcSelfFdOrDevFdIsRefused) {
  UniqueFd held(::open(path("data.bin").c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(held.valid());
  for (std::string id : {fmt::format("/proc/self/fd/{}", held.get()), fmt::format("/dev/fd/{}", held.get()),
                         fmt::format("/proc/{}/fd/{}", ::getpid(), held.get())}) {
    Consent consent{{id}};
    ASSERT_NE(consent.refused(), nullptr) << id;
    auto g = open_file_for_write(path("data.bin"), consent, 0);
    ASSERT_FALSE(g) << id;
    EXPECT_NE(g.error().what.find("/proc/PID/fd"), std::string::npos) << g.error().message();
  }
  EXPECT_EQ(slurp(path("data.bin")), kData);
}
