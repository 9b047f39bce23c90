// The file system of a file target, from mountinfo text: type, source, options, NFS server and sizes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "devices/device_json.hpp"
#include "devices/file_system.hpp"
#include "devices/host_state.hpp"

namespace {

using namespace diskvet::devices;

constexpr const char* kMountinfo =
    "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro\n"
    "40 22 8:17 / /data rw,noatime shared:5 - xfs /dev/sdb1 rw,attr2,inode64\n"
    "41 22 8:17 /sub /srv/bind rw,noatime shared:5 - xfs /dev/sdb1 rw,attr2,inode64\n"
    "50 22 0:53 / /mnt/my\\040share rw,relatime shared:9 - nfs4 127.0.0.1:/srv/export "
    "rw,vers=4.2,rsize=524288,wsize=262144,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=127.0.0.1,"
    "local_lock=none,addr=127.0.0.1\n"
    "51 22 0:54 / /mnt/v3 rw,relatime - nfs filer.example:/vol/a rw,vers=3,rsize=65536,wsize=65536,proto=tcp\n";

TEST(FileSystem, MountinfoCarriesPerMountAndSuperblockOptions) {
  auto m = parse_mountinfo(kMountinfo);
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0].mount_options, "rw,relatime");
  EXPECT_EQ(m[0].super_options, "rw,errors=remount-ro");
  EXPECT_EQ(m[3].mountpoint, "/mnt/my share");
  EXPECT_EQ(m[3].source, "127.0.0.1:/srv/export");
}

TEST(FileSystem, PicksTheMountOfTheFilesDeviceNumberThatHoldsThePath) {
  auto m = parse_mountinfo(kMountinfo);
  auto f = file_system_of("8:17", "/srv/bind/x/diskvet-test-1.img", m);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->mountpoint, "/srv/bind");
  EXPECT_EQ(f->fstype, "xfs");
  EXPECT_EQ(f->mount_options, "rw,noatime");
  EXPECT_TRUE(f->nfs_server.empty());
  // A path no mount of that number holds (seen through another namespace): the first of the number.
  auto other = file_system_of("8:17", "/elsewhere/f", m);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->mountpoint, "/data");
  // A prefix that is not a directory boundary does not hold the path.
  EXPECT_EQ(file_system_of("8:17", "/database/f", m)->mountpoint, "/data");
  EXPECT_FALSE(file_system_of("9:9", "/data/f", m));
}

TEST(FileSystem, NfsNamesTheServerAndTheSizesInUse) {
  auto m = parse_mountinfo(kMountinfo);
  auto f = file_system_of("0:53", "/mnt/my share/diskvet-test-7.img", m);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->fstype, "nfs4");
  EXPECT_EQ(f->nfs_server, "127.0.0.1");
  EXPECT_EQ(f->nfs_version, "4.2");
  EXPECT_EQ(f->nfs_rsize_bytes, 524288u);
  EXPECT_EQ(f->nfs_wsize_bytes, 262144u);
  EXPECT_NE(describe(*f).find("rsize 512KiB"), std::string::npos) << describe(*f);
  // Without addr=: the host part of the source.
  auto v3 = file_system_of("0:54", "/mnt/v3/f", m);
  ASSERT_TRUE(v3);
  EXPECT_EQ(v3->nfs_server, "filer.example");
  EXPECT_EQ(v3->nfs_rsize_bytes, 65536u);
}

TEST(FileSystem, OptionValueMatchesWholeKeysOnly) {
  EXPECT_EQ(option_value("rw,wsize=4096,rsize=8192", "rsize"), "8192");
  EXPECT_EQ(option_value("rw,xrsize=1", "rsize"), "");
  EXPECT_EQ(option_value("", "rsize"), "");
  EXPECT_EQ(option_value("rsize", "rsize"), "");
}

TEST(FileSystem, SurvivesTheReportRoundTrip) {
  Device d;
  d.path = "/mnt/x/diskvet-test-1.img";
  d.file_system = file_system_of("0:53", "/mnt/my share/f", parse_mountinfo(kMountinfo));
  d.file_system->direct_io = false;
  auto back = boost::json::value_to<Device>(boost::json::value_from(d));
  ASSERT_TRUE(back.file_system);
  EXPECT_EQ(back.file_system->nfs_server, "127.0.0.1");
  EXPECT_EQ(back.file_system->nfs_wsize_bytes, 262144u);
  EXPECT_FALSE(back.file_system->direct_io);
  EXPECT_FALSE(boost::json::value_to<Device>(boost::json::value_from(Device{})).file_system);
}

TEST(FileSystem, AFileWhoseMountIsNotShownStillGetsItsTypeAndSaysWhatIsUnknown) {
  // A chroot's mountinfo leaves out the mount its root is a directory of: here, an empty table.
  namespace fs = std::filesystem;
  fs::path fake = fs::temp_directory_path() / ("diskvet-fs-test-" + std::to_string(::getpid()));
  fs::create_directories(fake / "self");
  std::ofstream(fake / "self" / "mountinfo") << "";
  HostPaths host;
  host.proc = fake;
  auto f = file_system_of_path(fake.string(), host);
  fs::remove_all(fake);
  ASSERT_TRUE(f) << f.error().message();
  EXPECT_FALSE(f->fstype.empty());
  EXPECT_NE(f->mountpoint.find("not in /proc/self/mountinfo"), std::string::npos) << f->mountpoint;
  EXPECT_EQ(f->source, "unknown");
}

}  // namespace
