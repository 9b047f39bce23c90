// smartctl --json documents kept under tests/unit/data/smartctl, parsed as a health snapshot.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "devices/smartctl.hpp"

namespace diskvet::testing {

inline std::string smartctl_fixture_text(const std::string& name) {
  std::ifstream in(std::string(DISKVET_UNIT_DATA) + "/smartctl/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline devices::Health smartctl_fixture(const std::string& name) {
  auto h = devices::parse_smartctl_json(smartctl_fixture_text(name));
  EXPECT_TRUE(h) << name;
  return h.value_or(devices::Health{});
}

}  // namespace diskvet::testing
