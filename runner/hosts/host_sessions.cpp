// The multi-host controller's host bookkeeping: the work folder, one SSH session per host (fio's
// server, diskvet's gate), the version check, the hold, and closing every session at the end.
#include "runner/hosts/hosts_controller.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace diskvet::runner {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

std::vector<std::string> HostsController::ssh_prefix(const Host& h) const {
  std::vector<std::string> a{"ssh",
                             "-o",
                             "BatchMode=yes",
                             "-o",
                             fmt::format("ConnectTimeout={}", o_.connect_timeout_s),
                             "-o",
                             "ServerAliveInterval=2",
                             "-o",
                             "ServerAliveCountMax=3"};
  if (!o_.inventory.ssh_config.empty()) {
    fs::path cfg(o_.inventory.ssh_config);
    if (cfg.is_relative()) cfg = fs::path(o_.inventory.file).parent_path() / cfg;
    a.insert(a.end(), {"-F", cfg.string()});
  }
  if (h.ssh_port) a.insert(a.end(), {"-p", std::to_string(h.ssh_port)});
  return a;
}

// One SSH session per host: fio's server on a unix socket of the host, forwarded to ours. The
// remote shell prints fio's version, starts the server, says when its socket is there, then waits
// for its stdin to close (the run ended, or the controller is gone) and ends the server with every
// process under it (fio's jobs run in sessions of their own, so their tree, not a group, is ended).
bool HostsController::start_servers() {
  for (HostSession& s : hosts_) {
    const Host& h = *s.host;
    s.local_sock = h.name + ".sock";
    s.remote_sock = fmt::format("/tmp/diskvet-fio-{}-{}.sock", run_id_, h.name);
    const std::string ro = h.has_diskvet() ? "" : " --readonly";
    const std::string script = fmt::format(
        "S={0}; umask 077; rm -f $S; {1} --version || echo 'fio not found'; {1} --server=sock:$S{2} >/dev/null 2>&1 </dev/null & p=$!; "
        "i=0; while [ ! -S $S ] && [ $i -lt 150 ] && kill -0 $p 2>/dev/null; do sleep 0.1; i=$((i+1)); done; "
        "if [ -S $S ]; then echo diskvet-fio-server $p; else echo 'fio --server did not open its socket'; kill -9 $p 2>/dev/null; exit 1; "
        "fi; "
        "cat >/dev/null; "
        "d() {{ for c in $(ps -o pid= --ppid $1); do echo $c; d $c; done; }}; kill -9 $p $(d $p) 2>/dev/null; rm -f $S",
        s.remote_sock, h.fio, ro);
    auto argv = ssh_prefix(h);
    argv.insert(argv.end(), {"-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes", "-L",
                             fmt::format("{}/{}:{}", work_, s.local_sock, s.remote_sock), h.ssh, script});
    SpawnOptions so;
    so.pipe_stdin = true;
    so.pipe_stdout = true;
    so.stderr_file = fmt::format("{}/{}.ssh-server.err", work_, h.name);
    auto c = ChildProcess::spawn(argv, so);
    if (!c) {
      lose(s, "unreachable", c.error().message());
      continue;
    }
    s.server.emplace(std::move(*c));
  }
  const int wait_ms = (o_.connect_timeout_s + 20) * 1000;
  for (HostSession& s : hosts_) {
    if (!s.server) continue;
    auto version = s.server->read_line(wait_ms);
    auto ready = version ? s.server->read_line(wait_ms) : std::nullopt;
    if (!version || !ready || ready->rfind("diskvet-fio-server ", 0) != 0) {
      const std::string err = last_line(read_file(fmt::format("{}/{}.ssh-server.err", work_, s.host->name)));
      lose(s, "unreachable",
           version ? fmt::format("fio's server did not start there ({}: {})", *version, ready ? *ready : err)
                   : fmt::format("ssh {} failed{}", s.host->ssh, err.empty() ? "" : ": " + err));
      continue;
    }
    s.fio_version = *version;
    s.server_pid = ready->substr(19);
    say(s.host->name, fmt::format("fio server up ({})", s.fio_version));
  }
  return std::none_of(hosts_.begin(), hosts_.end(), [](const HostSession& s) { return s.lost(); });
}

bool HostsController::start_gates() {
  for (HostSession& s : hosts_) {
    const Host& h = *s.host;
    if (!h.has_diskvet() || h.devices.empty()) {
      for (const HostDevice& d : h.devices) {
        GateDevice g;
        g.id = d.id;
        g.path = d.id;
        s.devices.push_back(std::move(g));
      }
      continue;
    }
    auto argv = ssh_prefix(h);
    argv.insert(argv.end(), {h.ssh, h.diskvet, "gate"});
    for (const HostDevice& d : h.devices) argv.insert(argv.end(), {"--device", d.id});
    for (const HostDevice& d : h.devices)
      if (d.destroy_data) argv.insert(argv.end(), {"--destroy-data", d.id});
    for (const std::string& id : o_.destroy) argv.insert(argv.end(), {"--destroy-data", id});
    SpawnOptions so;
    so.pipe_stdin = true;
    so.pipe_stdout = true;
    so.stderr_file = fmt::format("{}/{}.ssh-gate.err", work_, h.name);
    auto c = ChildProcess::spawn(argv, so);
    if (!c) {
      lose(s, "unreachable", c.error().message());
      continue;
    }
    s.gate.emplace(std::move(*c));
  }
  bool all = true;
  for (HostSession& s : hosts_) {
    if (!s.gate) continue;
    auto line = s.gate->read_line((o_.connect_timeout_s + 60) * 1000);
    auto devs = line ? parse_gate_json(*line, s.host->name) : Result<std::vector<GateDevice>>(runtime_error(s.host->name, "no answer"));
    if (!devs) {
      const std::string err = last_line(read_file(fmt::format("{}/{}.ssh-gate.err", work_, s.host->name)));
      lose(s, "unreachable", fmt::format("diskvet gate did not answer{}", err.empty() ? "" : ": " + err));
      all = false;
      continue;
    }
    s.devices = *devs;
    if (const std::string refusals = check_gate_answer(s); !refusals.empty()) {
      lose(s, "refused", refusals);
      all = false;
    }
  }
  return all;
}

// A host gate's answer, checked before anything goes into a job file: every refusal found, joined
// (empty: none), each device's own in its `refusal`.
std::string HostsController::check_gate_answer(HostSession& s) {
  // The gate's answer goes into job files: it must be about the devices asked, each a plain /dev path.
  if (s.devices.size() != s.host->devices.size())
    return fmt::format("the gate answered for {} devices, {} were asked", s.devices.size(), s.host->devices.size());
  for (size_t i = 0; i < s.devices.size(); ++i) {
    GateDevice& d = s.devices[i];
    const bool plain =
        d.path.rfind("/dev/", 0) == 0 && std::none_of(d.path.begin(), d.path.end(), [](unsigned char c) { return c <= ' ' || c == 0x7f; });
    if (d.id != s.host->devices[i].id || (d.refusal.empty() && !plain))
      d.refusal = fmt::format("the gate's answer for {} is not usable", s.host->devices[i].id);
    if (d.held && !s.host->devices[i].destroy_data && o_.destroy.empty()) d.refusal = "held without consent";
  }
  // One device reached twice (a host listed under two names, one LUN seen from two hosts) would
  // be run twice and counted twice in the merged numbers: refused before anything is written.
  for (size_t i = 0; i < s.devices.size(); ++i) {
    GateDevice& d = s.devices[i];
    for (const HostSession& other : hosts_) {
      const bool self = &other == &s;
      for (size_t j = 0; j < other.devices.size() && (!self || j < i) && d.refusal.empty(); ++j)
        if (std::string why = same_device(d, other.devices[j]); !why.empty())
          d.refusal = fmt::format("is the same device as {} on host {} ({}): its numbers would count twice", other.devices[j].id,
                                  other.host->name, why);
      if (self) break;
    }
  }
  // Every refusal is said, not only the first: the operator fixes them all before the next try.
  std::string refusals;
  for (const GateDevice& d : s.devices) {
    if (!d.refusal.empty()) refusals += fmt::format("{}{}: {}", refusals.empty() ? "" : "; ", d.id, d.refusal);
    else say(s.host->name, fmt::format("{} is {} ({})", d.id, d.held ? "held for writing" : "read only", d.path));
  }
  return refusals;
}

json::object HostsController::host_json(const HostSession& s) const {
  json::array devs;
  for (const GateDevice& d : s.devices) {
    json::object o{{"id", d.id}, {"path", d.path}, {"held", d.held}, {"write_asked", d.write_asked}, {"size_bytes", d.size_bytes}};
    if (!d.refusal.empty()) o["refusal"] = d.refusal;
    devs.push_back(std::move(o));
  }
  json::object o{{"name", s.host->name},         {"ssh", s.host->ssh}, {"diskvet", s.host->has_diskvet()},
                 {"fio_version", s.fio_version}, {"state", s.state},   {"devices", std::move(devs)}};
  if (!s.reason.empty()) o["reason"] = s.reason;
  if (!s.when.empty()) o["when"] = s.when;
  return o;
}

// Closing a session's stdin ends what it started on the host; then each host is asked whether any
// process of its fio server is still there.
void HostsController::shut_down() {
  for (HostSession& s : hosts_) {
    if (s.gate) s.gate->close_stdin();
    if (s.server) s.server->close_stdin();
  }
  for (HostSession& s : hosts_) {
    if (s.gate && !s.gate->wait_for(10000)) s.gate->stop(2000);
    if (s.server && !s.server->wait_for(15000)) s.server->stop(2000);
  }
  // Asked of every host at once, then the answers collected.
  std::vector<std::pair<HostSession*, ChildProcess>> checks;
  for (HostSession& s : hosts_) {
    if (s.server_pid.empty() || s.state == "lost") continue;
    auto argv = ssh_prefix(*s.host);
    argv.insert(argv.end(), {s.host->ssh, fmt::format("pgrep -f -- '[s]erver=sock:{}' || true", s.remote_sock)});
    SpawnOptions so;
    so.pipe_stdout = true;
    auto c = ChildProcess::spawn(argv, so);
    if (c) checks.emplace_back(&s, std::move(*c));
  }
  for (auto& [s, c] : checks) {
    std::string left = c.read_rest(20000);
    c.wait_for(5000);
    while (!left.empty() && left.back() == '\n') left.pop_back();
    for (char& ch : left)
      if (ch == '\n') ch = ' ';
    if (!left.empty()) {
      leftovers_.push_back(json::object{{"host", s->host->name}, {"pids", left}});
      say(s->host->name, "fio processes still running after the run: " + left);
    }
  }
}

// The work folder (job files, fio's outputs, the forwarded sockets), removed at the end; its name
// carries our pid, so what a killed controller left behind is known by whoever killed it. Returns
// why it could not be made (empty: made).
std::string HostsController::make_work_folder() {
  std::error_code tmp_ec;
  const fs::path tmp = fs::temp_directory_path(tmp_ec);
  std::string tmpl = fmt::format("{}/diskvet-hosts-{}-XXXXXX", tmp_ec ? "/tmp" : tmp.string(), ::getpid());
  if (!::mkdtemp(tmpl.data()))
    return fmt::format("cannot make a work folder in {}: {}", fs::path(tmpl).parent_path().string(), std::strerror(errno));
  work_ = tmpl;
  return {};
}

// The controller's own fio: every host must run the same build (fio refuses other protocol versions).
std::string HostsController::local_fio_version() const {
  SpawnOptions so;
  so.pipe_stdout = true;
  auto c = ChildProcess::spawn({o_.local_fio, "--version"}, so);
  if (!c) return {};
  std::string version = last_line(c->read_rest(10000));
  c->wait_for(5000);
  return version;
}

// The gate phase: fio's servers up on every host with the controller's fio, then every device held
// (or refused) by the host's own gate. On failure the run's status, exit code and error.
bool HostsController::hold_hosts(json::object& rep, std::string& status, int& exit) {
  if (!start_servers()) {
    status = "INCOMPLETE";
    return false;
  }
  std::vector<std::string> differ;
  for (HostSession& s : hosts_)
    if (s.fio_version != local_version_) {
      differ.push_back(fmt::format("{} runs {}", s.host->name, s.fio_version));
      lose(s, "version-mismatch", fmt::format("runs {}, the controller {}", s.fio_version, local_version_));
    }
  if (!differ.empty()) {
    std::string list;
    for (const auto& d : differ) list += (list.empty() ? "" : "; ") + d;
    rep["error"] = fmt::format("every host must run the controller's fio ({}): {}", local_version_, list);
    status = "REFUSED";
    exit = 2;
    return false;
  }
  if (start_gates()) return true;
  const bool refused = std::any_of(hosts_.begin(), hosts_.end(), [](const HostSession& s) { return s.state == "refused"; });
  status = refused ? "REFUSED" : "INCOMPLETE";
  exit = refused ? 2 : 3;
  if (refused) rep["error"] = "a host's gate refused a device: nothing was written";
  return false;
}

}  // namespace diskvet::runner
