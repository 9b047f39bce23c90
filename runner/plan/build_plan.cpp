// The plan room: targets through the gate, profiles, outputs and workloads checked before any write.
#include "runner/plan/build_plan.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>

#include "common/units.hpp"
#include "devices/discovery.hpp"
#include "devices/file_system.hpp"
#include "devices/health.hpp"
#include "devices/identity.hpp"
#include "devices/write_gate.hpp"
#include "runner/io/workload.hpp"
#include "runner/run/fast_path.hpp"
#include "runner/run/plan_check.hpp"
#include "runner/run/purge.hpp"
#include "runner/run/suite_run.hpp"
#include "suites/profile.hpp"
#include "suites/profile_match.hpp"

namespace diskvet::runner {

namespace {

// How the profiles are chosen, decided once for the run before any device is touched: one named for
// every device, a cloud family sized per device, the shipped ones matched per device, or none.
struct ProfileChoice {
  std::string text;
  ProfileChooser chooser = ProfileChooser::command_line;
  bool measurement_only = false;
  std::optional<suites::Profile> named;
  std::vector<suites::Profile> shipped;  // auto

  Status choose_for(DevicePlan& dp) const {
    const bool tui = chooser == ProfileChooser::tui;
    if (measurement_only) {
      dp.profile_reason = tui ? "measurement only (profile none chosen in the TUI): no limits judged"
                              : "measurement only (--profile none): no limits judged";
    } else if (named) {
      dp.profile = named;
      dp.profile_reason = fmt::format("{} ({})", tui ? "chosen in the TUI" : "named on the command line", named->file);
    } else if (text != "auto") {
      std::string reason;
      auto p = suites::resolve_profile_for(text, dp.device, reason);
      if (!p) return p.error();
      dp.profile = std::move(*p);
      // "named on the command line: Azure Premium SSD P10 (128 GiB) (azure-premium-ssd:tier=P10)", said of the TUI.
      const std::string said = "named on the command line";
      dp.profile_reason = tui && reason.starts_with(said) ? "chosen in the TUI" + reason.substr(said.size()) : reason;
    } else {
      dp.profile = suites::match_profile(dp.device, shipped, dp.profile_reason);
    }
    return ok_status();
  }
};

Result<ProfileChoice> choose_profiles(const std::string& text, ProfileChooser chooser) {
  ProfileChoice c{text, chooser, text == "none", std::nullopt, {}};
  if (c.measurement_only) return c;
  if (text == "auto") {
    auto all = suites::builtin_profiles();
    if (!all) return all.error();
    c.shipped = std::move(*all);
    return c;
  }
  // Checked here, before any device is touched; a cloud family is sized per device later.
  auto args = suites::parse_profile_args(text);
  if (!args) return args.error();
  if (!suites::is_cloud_family(args->name)) {
    auto p = suites::resolve_profile(text);
    if (!p) return p.error();
    c.named = std::move(*p);
  }
  return c;
}

Status check_options(const PlanRequest& r) {
  const RunOptions& o = r.options;
  // The same limits parse_duration_option applies to typed text, for front ends that pass numbers.
  if (o.duration_s && (*o.duration_s < 0.1 || *o.duration_s > kMaxRunS))
    return usage_error("--duration", fmt::format("{} s is not from 0.1 s to a year", *o.duration_s), "e.g. 5s, 1m, 7d");
  if (o.precondition_limit_s && (*o.precondition_limit_s <= 0 || *o.precondition_limit_s > kMaxRunS))
    return usage_error("--precondition-limit", fmt::format("{} s is not a duration up to a year", *o.precondition_limit_s), "e.g. 30m, 2h");
  if (o.verify_memory_bytes < (uint64_t{1} << 20))
    return usage_error("--verify-memory", fmt::format("{} is less than 1 MiB", format_bytes(o.verify_memory_bytes)), "e.g. 512m, 2g");
  const int target_kinds = (r.devices.empty() ? 0 : 1) + (r.all ? 1 : 0) + (r.file_target ? 1 : 0);
  if (target_kinds > 1)
    return usage_error(r.file_target ? "--directory" : "--all", "and another target option name the targets twice",
                       "use one of --device, --all and --directory");
  if (r.file_target && r.file_target->size_bytes < (uint64_t{64} << 20))
    return usage_error("--size", fmt::format("{} is less than the 64 MiB a test file needs", format_bytes(r.file_target->size_bytes)), "e.g. 10g");
  if (target_kinds == 0 && r.scratch_size_bytes < (uint64_t{64} << 20))
    return usage_error("--scratch-size", fmt::format("{} is less than the 64 MiB a scratch target needs", format_bytes(r.scratch_size_bytes)));
  // Whether each names a device of the run is checked once the targets are known (--all finds them).
  for (const auto& [dev, cap] : r.rate_caps)
    if (cap == 0) return usage_error("--rate-cap", fmt::format("{}=0 caps nothing", dev), "e.g. --rate-cap /dev/loop7=2000");
  return ok_status();
}

// The Device value for a path: discovery's view of a block device; a regular file is a target too.
Result<devices::Device> describe(const std::string& path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) return usage_error(path, "does not exist", "check the path with 'diskvet list'");
  if (S_ISBLK(st.st_mode)) return devices::find_device(path);
  auto t = Target::open(path, false);
  if (!t) return t.error();
  return describe_file(path, t->info());
}

// The scratch file of a run as a user without loop devices: a new file of our own (O_EXCL, never
// through a link), laid out with data, removed after the run by `owned`, and only while the name
// still holds the inode created here (a file swapped in under that name meanwhile is left alone).
Result<Target> create_scratch_file(const std::string& file, uint64_t size_bytes, OwnedFile& owned) {
  auto grant = devices::open_for_write(file, devices::Consent{}, size_bytes);
  if (!grant) return grant.error();
  if (!grant->created) return safety_error(file, "already exists; diskvet writes a scratch file only when it creates it", "remove it or run elsewhere");
  struct stat st{};
  if (::fstat(grant->fd.get(), &st) != 0) return system_error(file, "cannot fstat the scratch file just created", errno);
  owned.own(file, st.st_dev, st.st_ino, false);
  return Target::lay_out(std::move(grant->fd), file, size_bytes, true);
}

// A target the plan made itself (scratch file, --directory file): opened already, described here.
struct MadeTarget {
  std::string path;
  Target target;
  devices::Device device;
};

// Targets the plan makes (a file in --directory, a scratch loop device or file) and the disks --all
// finds; named devices are taken as they are. Notes say what was made or skipped.
Result<std::optional<MadeTarget>> make_targets(PlanRequest& r, PlannedRun& run, std::vector<std::string>& paths) {
  if (r.file_target) {
    const FileTargetRequest& f = *r.file_target;
    // Kept (--keep-file) only once the plan stands: a run refused after this removes the file it made.
    auto t = create_test_file(f.directory, "test", f.size_bytes, /*keep=*/false, run.scratch_file);
    if (!t) return t.error();
    const std::string& file = run.scratch_file.path();
    devices::Device dev = describe_file(file, t->target.info());
    dev.file_system = t->file_system;
    run.notes.push_back(fmt::format("file target: created {} ({}, filled with data before the tests){}", file, format_bytes(f.size_bytes),
                                    f.keep ? ", kept afterwards (--keep-file)" : ", removed afterwards"));
    run.notes.push_back("file target: " + devices::describe(t->file_system));
    if (!t->file_system.direct_io)
      run.notes.push_back(fmt::format("file target: {} refused O_DIRECT; the run used buffered I/O and its numbers include the page cache",
                                      t->file_system.fstype.empty() ? "the file system" : t->file_system.fstype));
    run.notes.push_back("file target: no purge (a file is neither formatted nor discarded), no health, no namespace facts");
    return std::optional<MadeTarget>(MadeTarget{file, std::move(t->target), std::move(dev)});
  }
  if (r.all) {
    // Every disk discovery finds unprotected; protected ones are named in the report's notes.
    auto found = devices::discover();
    if (!found) return found.error();
    for (const auto& d : *found) {
      if (!d.is_protected) paths.push_back(d.path);
      else run.notes.push_back(fmt::format("--all skipped {} (PROTECTED: {})", d.path, d.protection_reasons.empty() ? "" : d.protection_reasons.front()));
    }
    if (paths.empty()) return usage_error("--all", "found no unprotected disk", "see 'diskvet list' for each disk's protection");
    return std::optional<MadeTarget>();
  }
  if (!paths.empty()) return std::optional<MadeTarget>();
  if (devices::can_create_loop_devices()) {
    auto loop = devices::LoopDevice::create(fmt::format("/dev/shm/diskvet-scratch-{}.img", getpid()), r.scratch_size_bytes);
    if (!loop) return loop.error();
    run.scratch_loop.emplace(std::move(*loop));
    paths.push_back(run.scratch_loop->path());
    r.consent.add(run.scratch_loop->path());  // we created it: nothing of anyone's is on it
    run.notes.push_back(fmt::format("no device named: ran on a scratch loop device over {} ({} in RAM), detached afterwards",
                                    run.scratch_loop->backing(), format_bytes(r.scratch_size_bytes)));
    return std::optional<MadeTarget>();
  }
  const std::string file = fmt::format("diskvet-scratch-{}.img", getpid());
  auto t = create_scratch_file(file, r.scratch_size_bytes, run.scratch_file);
  if (!t) return t.error();
  devices::Device dev = describe_file(file, t->info());
  run.notes.push_back(fmt::format("no device named and not root: ran on the O_DIRECT file {} in the current directory, removed afterwards", file));
  return std::optional<MadeTarget>(MadeTarget{file, std::move(*t), std::move(dev)});
}

// One named target through the gate: held (O_EXCL for a block device) when the suite writes, its
// identity read again while held, with the protection the gate assessed under that hold.
Result<DevicePlan> open_device(const std::string& path, const devices::Device& described, bool writable, const PlanRequest& r) {
  if (!writable) {
    auto t = Target::open(path, false);
    if (!t) return t.error();
    return DevicePlan{described, std::move(*t), std::nullopt, {}, 0};
  }
  // The one gate: consent, protection rules, O_EXCL held for as long as the Target lives; an
  // existing file is written only when the consent names it.
  auto grant = devices::open_for_write(path, r.consent);
  if (!grant) return grant.error();
  devices::Device device = described;
  if (grant->block_device) {
    // Held O_EXCL now: what sits at the path is read again, and the gate's assessment, made under the
    // hold, is the one recorded.
    auto now = devices::find_device(path);
    if (!now) return safety_error(path, "is no longer found by discovery", "nothing was written; check the device and run again");
    if (r.confirm)
      if (auto same = r.confirm(path, *now); !same) return same.error();
    device = std::move(*now);
    device.is_protected = grant->device.is_protected;
    device.protection_reasons = grant->device.protection_reasons;
  }
  auto t = Target::adopt(std::move(grant->fd), path, true);
  if (!t) return t.error();
  return DevicePlan{std::move(device), std::move(*t), std::nullopt, {}, 0};
}

}  // namespace

Result<suites::Suite> resolve_run_suite(const std::string& name_or_file) {
  auto suite = suites::resolve_suite(name_or_file);
  if (!suite) return suite.error();
  if (suite->placeholder) return usage_error("--suite " + suite->name, "is a placeholder: " + suite->placeholder_note, "choose quick or acceptance");
  return suite;
}

Result<double> parse_duration_option(const std::string& text, const std::string& option, double min_s) {
  auto s = parse_duration_s(text);
  if (!s || *s < min_s || (min_s <= 0 && *s <= 0))
    return usage_error(option, min_s > 0 ? fmt::format("'{}' is not a duration of at least {}s", text, min_s) : fmt::format("'{}' is not a duration", text),
                       "e.g. 30s, 5m, 2h");
  // The engine's deadlines hold at most a year (validate() says so per workload; said here once).
  if (*s > kMaxRunS) return usage_error(option, fmt::format("'{}' is more than a year", text), "e.g. 1h, 7d");
  return *s;
}

std::string default_report_name(const std::string& kind, const std::string& suite) {
  std::string stamp = utc_now_iso8601();
  std::replace(stamp.begin(), stamp.end(), ':', '-');
  return fmt::format("diskvet-{}-{}-{}.json", kind, suite, stamp);
}

RunHooks device_run_hooks() {
  RunHooks hooks;
  hooks.read_health = [](const devices::Device& d) -> std::optional<devices::Health> {
    if (d.kind == devices::DeviceKind::other && d.model == "regular file") return std::nullopt;
    return devices::read_health(d);
  };
  // Called by the runner only for targets the gate opened for writing; else discard, else none.
  hooks.nvme_purge = purge_nvme;
  hooks.self_test = devices::open_self_test;
  return hooks;
}

Result<PlannedRun> build_plan(PlanRequest r) {
  if (r.suite.placeholder) return usage_error("--suite " + r.suite.name, "is a placeholder: " + r.suite.placeholder_note, "choose quick or acceptance");
  if (auto ok = check_options(r); !ok) return ok.error();
  auto profiles = choose_profiles(r.profile, r.chooser);
  if (!profiles) return profiles.error();
  PlannedRun run;
  run.plan.suite = r.suite;
  run.plan.options = r.options;
  run.plan.options.measurement_only = profiles->measurement_only;
  // The report is claimed (its temporary file created beside it and held open) before any device
  // or file is touched: an output that cannot be written is refused now, when it costs nothing.
  auto claim = claim_output(r.out, r.out_option);
  if (!claim) return claim.error();
  run.report = std::move(*claim);

  std::vector<std::string> paths = r.devices;
  auto made = make_targets(r, run, paths);
  if (!made) return made.error();
  const bool writable = suites::suite_writes(r.suite);
  // Every device passes the gate before the first I/O on any of them: one refusal stops the run.
  auto add = [&](const std::string& path, Result<DevicePlan> dp) -> Status {
    if (!dp) {
      Error e = dp.error();
      if (writable && e.kind == ErrorKind::safety && paths.size() > 1)
        e.fix += (e.fix.empty() ? "" : "; ") + std::string("no device of this run was written");
      return e;
    }
    if (auto ok = profiles->choose_for(*dp); !ok) return ok;
    if (r.host_cap && dp->profile) {
      std::string bound;
      suites::apply_host_cap(*dp->profile, *r.host_cap, bound);
      dp->profile_reason += bound.empty() ? fmt::format("; host cap {} did not bind: the disk's own limits are lower", r.host_cap->text)
                                          : fmt::format("; host cap {} binds: {}", r.host_cap->text, bound);
    }
    if (auto it = r.rate_caps.find(path); it != r.rate_caps.end()) dp->rate_cap_iops = it->second;
    dp->fast_path = prepare_fast_path(dp->target, r.suite);
    run.plan.devices.push_back(std::move(*dp));
    return ok_status();
  };
  if (*made) {
    MadeTarget& m = **made;
    if (auto ok = add(m.path, DevicePlan{std::move(m.device), std::move(m.target), std::nullopt, {}, 0}); !ok) return ok.error();
  }
  for (const auto& path : paths) {
    auto dev = describe(path);
    if (!dev) return dev.error();
    // One medium seen through several paths (one LUN without dm-multipath, one namespace through
    // two controllers) is tested once, through the first path.
    auto twin = std::find_if(run.plan.devices.begin(), run.plan.devices.end(), [&](const DevicePlan& p) { return devices::same_medium(p.device, *dev); });
    if (twin != run.plan.devices.end()) {
      run.notes.push_back(fmt::format("{} skipped: the same medium as {} (WWN {}), tested once", path, twin->device.path, dev->wwn.empty() ? "-" : dev->wwn));
      continue;
    }
    if (auto ok = add(path, open_device(path, *dev, writable, r)); !ok) return ok.error();
  }
  for (const auto& [dev, cap] : r.rate_caps)
    if (std::find(paths.begin(), paths.end(), dev) == paths.end())
      return usage_error("--rate-cap", fmt::format("{} is not one of the devices of this run", dev));
  // Verification state is sized for every device before the first I/O: one that cannot fit the
  // budget stops the run here, with nothing written.
  if (auto fits = plan_verify_memory(run.plan); !fits) return fits.error();
  // Every workload against every device, as it will run: a later test that cannot run on a device
  // refuses the run now, before the first test writes.
  if (auto fits = check_plan_workloads(run.plan); !fits) return fits.error();
  run.scratch_file.keep(r.file_target && r.file_target->keep);
  return run;
}

}  // namespace diskvet::runner
