// `diskvet list [--json]`: every disk, what it is, its health and whether it may be written.
#include <fmt/format.h>

#include <boost/json.hpp>
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/list_table.hpp"
#include "devices/device_json.hpp"
#include "devices/discovery.hpp"

namespace diskvet::cli {

namespace {

struct ListOptions {
  bool json = false;
  bool all = false;
};

int run_list(const ListOptions& o) {
  devices::DiscoveryOptions options;
  options.include_empty = o.all;
  auto found = devices::discover(options);
  if (!found) return fail(found.error());
  if (o.json) {
    boost::json::array out;
    for (const auto& d : *found) out.push_back(boost::json::value_from(d));
    std::printf("%s\n", boost::json::serialize(out).c_str());
  } else {
    std::fputs(render_device_table(*found).c_str(), stdout);
  }
  return 0;
}

}  // namespace

Action register_list(CLI::App& app) {
  auto o = std::make_shared<ListOptions>();
  CLI::App* list = app.add_subcommand("list", "List disks: identity, block sizes, health, and whether diskvet may write them");
  list->footer(
      "A PROTECTED disk is never written: mounted, held by LVM/MD/dm, swap, read-only, in use, backing the\n"
      "running system or boot medium. A disk protected only by a partition table or signature can be\n"
      "written when --destroy-data names its consent ID (its serial, SERIAL/NSID for a namespace of an NVMe\n"
      "controller with several, or its WWN).");
  list->add_flag("--json", o->json, "A JSON array of devices on stdout");
  list->add_flag("--all", o->all, "Also list empty disks (unbound loop devices, readers without media)");
  return [o] { return run_list(*o); };
}

}  // namespace diskvet::cli
