// The SSH lab of the multi-host tests.
#include "ssh_lab.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "tests/support/lab.hpp"
#include "tests/support/run_command.hpp"

namespace diskvet::testing {

namespace fs = std::filesystem;

std::string ssh_lab_unavailable() {
  if (!is_root()) return "the SSH lab needs root (sshd, loopback addresses, loop devices)";
  if (!fs::exists("/usr/sbin/sshd")) return "sshd is not installed (package openssh-server)";
  for (const char* p : {"ssh", "ssh-keygen", "fio"})
    if (!have_program(p)) return std::string(p) + " is not installed";
  return {};
}

namespace {

// A file of /proc/PID, empty when the process is gone. Not through a stream: libstdc++'s filebuf
// throws when read() fails, and read() fails with ESRCH when the process exits between the open
// and the read (seen: "basic_filebuf::underflow error reading the file: No such process" ended
// HostsLab.KillingTheControllerStopsTheRemoteJobs while the processes it watched exited).
std::string proc_file(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

std::map<pid_t, pid_t> parents() {
  std::map<pid_t, pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string n = e.path().filename().string();
    if (n.empty() || !std::isdigit(static_cast<unsigned char>(n[0]))) continue;
    const std::string stat = proc_file(e.path() / "stat");
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    out[static_cast<pid_t>(std::stol(n))] = ppid;
  }
  return out;
}

std::vector<pid_t> descendants(pid_t root) {
  auto par = parents();
  std::set<pid_t> found{root};
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& [pid, ppid] : par)
      if (found.count(ppid) && found.insert(pid).second) grew = true;
  }
  found.erase(root);
  return {found.begin(), found.end()};
}

std::string cmdline(pid_t pid) {
  std::string s = proc_file("/proc/" + std::to_string(pid) + "/cmdline");
  for (char& c : s)
    if (c == '\0') c = ' ';
  return s;
}

}  // namespace

SshLab::SshLab(int hosts) {
  if (hosts < 1 || hosts > 250) {
    why_ = "1..250 hosts";
    return;
  }
  char tmpl[] = "/dev/shm/diskvet-i15-lab-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    why_ = "cannot make the lab folder";
    return;
  }
  dir_ = tmpl;
  fs::create_directories("/run/sshd");  // sshd's privilege separation folder
  auto keygen = [&](const std::string& file) {
    auto r = run_command({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", file});
    if (r.exit_code != 0) why_ = "ssh-keygen failed: " + r.err;
    return r.exit_code == 0;
  };
  if (!keygen(dir_ + "/client_key")) return;
  fs::copy_file(dir_ + "/client_key.pub", dir_ + "/authorized_keys");
  // A port of its own per test process: a lab left over by a killed test cannot collide.
  const int port = 20000 + static_cast<int>(::getpid() % 20000);
  std::string config, known;
  for (int i = 0; i < hosts; ++i) {
    const std::string h = dir_ + "/" + name(i), addr = fmt::format("127.0.0.{}", i + 2);
    fs::create_directories(h);
    if (!keygen(h + "/host_key")) return;
    std::ifstream pub(h + "/host_key.pub");
    std::string type, key;
    pub >> type >> key;
    known += fmt::format("[{}]:{} {} {}\n", addr, port, type, key);
    config += fmt::format(
        "Host {}\n  HostName {}\n  Port {}\n  User root\n  IdentityFile {}/client_key\n  IdentitiesOnly yes\n"
        "  UserKnownHostsFile {}/known_hosts\n  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n",
        name(i), addr, port, dir_, dir_);
    // Debian 12's sshd refuses streamlocal (unix socket) forwarding unless TCP forwarding is allowed too.
    write(name(i) + "/sshd_config",
          fmt::format("ListenAddress {}:{}\nHostKey {}/host_key\nAuthorizedKeysFile {}/authorized_keys\nPidFile none\n"
                      "PermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n"
                      "StrictModes no\nAllowStreamLocalForwarding yes\nAllowTcpForwarding yes\nX11Forwarding no\nPrintMotd no\n"
                      "MaxSessions 50\nMaxStartups 200\nLogLevel ERROR\n",
                      addr, port, h, dir_));
  }
  write("known_hosts", known);
  write("ssh_config", config);
  for (int i = 0; i < hosts; ++i) {
    SpawnOptions so;
    so.stderr_file = dir_ + "/" + name(i) + "/sshd.log";
    auto c = ChildProcess::spawn({"/usr/sbin/sshd", "-D", "-e", "-f", dir_ + "/" + name(i) + "/sshd_config"}, so);
    if (!c) {
      why_ = "sshd did not start: " + c.error().message();
      return;
    }
    sshd_.emplace_back(std::move(*c));
  }
  // Ready when each answers.
  for (int i = 0; i < hosts; ++i) {
    bool up = false;
    for (int t = 0; t < 50 && !up; ++t) {
      auto r = run_command({"ssh", "-F", dir_ + "/ssh_config", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", name(i), "true"});
      up = r.exit_code == 0;
      if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!up) {
      std::ifstream log(dir_ + "/" + name(i) + "/sshd.log");
      why_ = name(i) + "'s sshd does not answer: " + std::string((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
      return;
    }
  }
}

SshLab::~SshLab() {
  for (size_t i = 0; i < sshd_.size(); ++i) kill_host(static_cast<int>(i));
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

std::string SshLab::name(int i) const { return fmt::format("h{}", i + 1); }

std::string SshLab::write(const std::string& file, const std::string& text) const {
  const std::string path = dir_ + "/" + file;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

void SshLab::kill_host(int i) {
  if (i < 0 || static_cast<size_t>(i) >= sshd_.size() || !sshd_[i] || sshd_[i]->poll()) return;
  const pid_t root = sshd_[i]->pid();
  ::kill(root, SIGSTOP);  // no new session while its tree is taken down
  for (pid_t p : descendants(root)) ::kill(p, SIGKILL);
  ::kill(root, SIGKILL);
  sshd_[i]->wait_for(5000);
  // Its fio server's socket (the controller's remote shell removes it when a run ends, but that
  // shell was killed with the host): every one named for this host that no server listens on.
  std::string listening;
  {
    std::ifstream in("/proc/net/unix");
    listening.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string suffix = "-" + name(i) + ".sock";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/tmp", ec)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("diskvet-fio-", 0) == 0 && f.size() > suffix.size() && f.ends_with(suffix) &&
        listening.find(" " + e.path().string() + "\n") == std::string::npos)
      fs::remove(e.path(), ec);
  }
}

std::vector<pid_t> process_tree(pid_t root) {
  auto v = descendants(root);
  v.push_back(root);
  return v;
}

uint64_t rss_kib(pid_t pid) {
  std::istringstream in(proc_file("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

std::vector<pid_t> processes_with(const std::string& needle) {
  std::vector<pid_t> out;
  for (const auto& [pid, ppid] : parents())
    if (pid != ::getpid() && cmdline(pid).find(needle) != std::string::npos) out.push_back(pid);
  return out;
}

}  // namespace diskvet::testing
