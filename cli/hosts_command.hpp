// The multi-host branch of `diskvet run` (--hosts FILE).
#pragma once

#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace diskvet::cli {

struct HostsCliOptions {
  std::string hosts_file, suite, profile, out, duration, engine;
  std::string host_profile;  // --host-profile: limits for each host's own numbers
  std::vector<std::string> destroy;
  bool quiet = false;
  std::string connect_timeout;  // --connect-timeout: how long one host may take to answer over SSH
};

int run_hosts_command(const HostsCliOptions& o);

}  // namespace diskvet::cli
