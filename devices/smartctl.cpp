// smartctl as a child process (no shell) and its JSON parsed with Boost.JSON.
#include "devices/smartctl.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>

#include "common/fd.hpp"

extern char** environ;

namespace diskvet::devices {

namespace json = boost::json;

namespace {

const json::value* at(const json::value& v, std::initializer_list<std::string_view> keys) {
  const json::value* cur = &v;
  for (auto k : keys) {
    const json::object* o = cur->if_object();
    if (!o) return nullptr;
    cur = o->if_contains(k);
    if (!cur) return nullptr;
  }
  return cur;
}

std::optional<uint64_t> number(const json::value* v) {
  if (!v) return std::nullopt;
  boost::system::error_code ec;
  auto n = v->to_number<uint64_t>(ec);
  if (ec) return std::nullopt;
  return n;
}

}  // namespace

std::optional<Health> parse_smartctl_json(std::string_view text) {
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  if (ec || !doc.is_object()) return std::nullopt;
  const json::value* passed = at(doc, {"smart_status", "passed"});
  if (!passed || !passed->is_bool()) return std::nullopt;
  Health h;
  h.known = true;
  h.source = "smartctl";
  h.smart_passed = passed->as_bool();
  if (auto t = number(at(doc, {"temperature", "current"}))) h.temperature_c = static_cast<double>(*t);
  if (const json::value* table = at(doc, {"ata_smart_attributes", "table"}); table && table->is_array()) {
    std::optional<uint64_t> reported_uncorrect, offline_uncorrectable;
    for (const auto& attr : table->as_array()) {
      auto id = number(at(attr, {"id"}));
      auto raw = number(at(attr, {"raw", "value"}));
      if (!id || !raw) continue;
      if (*id == 5) h.reallocated_sectors = raw;             // Reallocated_Sector_Ct
      if (*id == 187) reported_uncorrect = raw;              // Reported_Uncorrect
      if (*id == 197) h.pending_sectors = raw;               // Current_Pending_Sector
      if (*id == 198) offline_uncorrectable = raw;           // Offline_Uncorrectable
    }
    if (reported_uncorrect || offline_uncorrectable)
      h.media_errors = reported_uncorrect.value_or(0) + offline_uncorrectable.value_or(0);
  }
  if (auto grown = number(at(doc, {"scsi_grown_defect_list"}))) h.reallocated_sectors = grown;
  auto read_unc = number(at(doc, {"scsi_error_counter_log", "read", "total_uncorrected_errors"}));
  auto write_unc = number(at(doc, {"scsi_error_counter_log", "write", "total_uncorrected_errors"}));
  if (read_unc || write_unc) h.media_errors = read_unc.value_or(0) + write_unc.value_or(0);
  if (auto used = number(at(doc, {"scsi_percentage_used_endurance_indicator"})))
    h.percentage_used = static_cast<uint8_t>(std::min<uint64_t>(*used, 255));
  return h;
}

// posix_spawnp rather than Boost.Process, which the tests use (tests/support/run_command.cpp): this
// runs inside diskvet while its I/O and health threads run, where glibc's posix_spawn (clone with
// CLONE_VM|CLONE_VFORK, no copy of a large address space) is the safe and cheap way to start a
// child, and Boost.Process v1 uses fork() and reports failures by throwing; argv is already a
// vector here, so there is no shell to remove.
std::optional<Health> run_smartctl(const std::string& node) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  UniqueFd read_end(out[0]), write_end(out[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::string a0 = "smartctl", a1 = "--json=c", a2 = "-a", a3 = "-n", a4 = "standby";
  std::string dev = node;
  char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), a4.data(), dev.data(), nullptr};
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, "smartctl", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  write_end.reset();
  if (rc != 0) return std::nullopt;  // not installed
  std::string text;
  char buf[8192];
  for (ssize_t n; (n = ::read(read_end.get(), buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  int status = 0;
  ::waitpid(pid, &status, 0);
  // Exit status bits 0 and 1: bad command line, or the device could not be opened (smartctl(8)).
  if (!WIFEXITED(status) || (WEXITSTATUS(status) & 0x3)) return std::nullopt;
  return parse_smartctl_json(text);
}

}  // namespace diskvet::devices
