// `diskvet suites`: the suites and profiles shipped, what each does, and which are placeholders.
#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.hpp"
#include "common/units.hpp"
#include "suites/cloud_profile.hpp"
#include "suites/profile.hpp"
#include "suites/suite.hpp"
#include "suites/vm_size.hpp"

namespace diskvet::cli {

namespace {

int list_suites() {
  std::string out = "Suites (--suite NAME, or a file of your own in the same format):\n";
  for (const auto& name : suites::builtin_suite_names()) {
    auto s = suites::builtin_suite(name);
    if (!s) return fail(s.error());
    out += fmt::format("\n  {}{}\n    {}\n", s->name, s->placeholder ? "  [placeholder: not filled in yet]" : "", s->placeholder ? s->placeholder_note : s->description);
    for (const auto& t : s->tests) {
      std::string wl;
      for (const auto& w : t.workloads)
        wl += fmt::format("{}{} {}", wl.empty() ? "" : ", ", runner::to_string(w.rw), format_bytes(w.bs_bytes));
      out += fmt::format("    - {:<20} {}{}\n", t.id, wl, t.sweep ? fmt::format(" (sweep of {} steps to the knee)", t.sweep->steps.size()) : "");
    }
  }
  out += "\nProfiles (--profile NAME, FILE, or auto to match by model and size):\n";
  for (const auto& name : suites::builtin_profile_names()) {
    auto p = suites::builtin_profile(name);
    if (!p) return fail(p.error());
    std::string match = p->template_only ? "never matched (template)" : (p->match.model_regex.empty() ? "not matched automatically" : "model " + p->match.model_regex);
    out += fmt::format("\n  {}  ({})\n    {}\n    source: {}\n", p->name, match, p->description, p->source);
  }
  out += "\nCloud volume families (--profile FAMILY[:KEY=VALUE,...]; --profile auto picks the Azure family from what the guest sees):\n";
  for (const auto& family : suites::cloud_family_names()) {
    std::string params;
    if (family == "azure-premium-ssd" || family == "azure-standard-ssd") params = "tier=P30|E30 or size= (else the disk's size), iops=, mbps= (MB/s)";
    else if (family == "azure-premium-ssd-v2") params = "iops= (3000), mbps= (125 MB/s)";
    else if (family == "azure-ultra") params = "iops=, mbps= (MB/s), both required";
    else if (family == "aws-gp3") params = "iops= (3000), mbps= (125 MiB/s)";
    else if (family == "aws-gp2") params = "size= (else the disk's size): 3 IOPS per GiB";
    else if (family == "aws-io1" || family == "aws-io2") params = "iops= required, mbps= (MiB/s)";
    else params = "size= (else the disk's size), iops=, mbps= (MiB/s)";
    out += fmt::format("  {:<22} {}\n", family, params);
  }
  out += "  Each limit carries the provider's document and date; latency limits only where the provider publishes one, as a\n"
         "  design target. --host-cap iops=N,mbps=M caps them at the VM's limit.\n";
  out += "\nVM sizes (--host-cap PROVIDER:SIZE: the VM's uncached disk IOPS and MB/s from the provider's size table):\n";
  for (const char* provider : {"azure", "aws"}) {
    std::string line;
    for (const auto& n : suites::vm_size_names(provider)) {
      const std::string name = n.substr(n.find(':') + 1);
      auto vm = suites::find_vm_size(provider, name);
      line += fmt::format("  {:<24} {:>6.0f} IOPS {:>8g} MB/s\n", n, vm->iops, vm->mbps);
    }
    out += line;
  }
  out += fmt::format("  {}\n", suites::vm_size_notes());
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Action register_suites(CLI::App& app) {
  app.add_subcommand("suites", "List the suites and profiles shipped");
  return [] { return list_suites(); };
}

}  // namespace diskvet::cli
