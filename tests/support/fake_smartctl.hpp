// A stand-in smartctl: a shell script put first on PATH for the test's lifetime (removed after it,
// and PATH restored, however the test ends). The script's directory is `dir`, for state files.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace diskvet::testing {

struct FakeSmartctl {
  std::filesystem::path dir;
  std::string old_path;
  explicit FakeSmartctl(const std::string& body) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "diskvet-fake-smartctl-XXXXXX").string();
    dir = ::mkdtemp(tmpl.data()) ? std::filesystem::path(tmpl) : std::filesystem::path();
    std::ofstream(dir / "smartctl") << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(dir / "smartctl", std::filesystem::perms::owner_all);
    old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  }
  FakeSmartctl(const FakeSmartctl&) = delete;
  FakeSmartctl& operator=(const FakeSmartctl&) = delete;
  ~FakeSmartctl() {
    ::setenv("PATH", old_path.c_str(), 1);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace diskvet::testing
