// /dev/kmsg records, the kinds of line that matter for a tested device, and the reader thread.
#include "runner/run/kernel_log.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "runner/io/clock.hpp"

namespace diskvet::runner {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

bool contains(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

template <typename T>
bool parse_field(std::string_view s, T& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::optional<KmsgRecord> parse_kmsg_record(std::string_view raw) {
  size_t semi = raw.find(';');
  if (semi == std::string_view::npos) return std::nullopt;
  std::string_view prefix = raw.substr(0, semi);
  std::array<std::string_view, 3> f;
  for (auto& field : f) {
    size_t comma = prefix.find(',');
    field = prefix.substr(0, comma);
    if (comma == std::string_view::npos) {
      prefix = {};
      if (&field != &f.back()) return std::nullopt;
    } else {
      prefix.remove_prefix(comma + 1);
    }
  }
  KmsgRecord r;
  int prio = 0;
  if (!parse_field(f[0], prio) || !parse_field(f[1], r.seq) || !parse_field(f[2], r.ts_us)) return std::nullopt;
  r.level = prio & 7;
  std::string_view text = raw.substr(semi + 1);
  text = text.substr(0, text.find('\n'));  // dictionary lines (" SUBSYSTEM=...") follow the first newline
  r.text = std::string(text);
  return r;
}

std::optional<std::string_view> kernel_event_kind(std::string_view t) {
  // Linux drivers' own words: drivers/nvme/host/core.c and pci.c ("resetting controller", "I/O 952
  // QID 1 timeout, aborting", "Abort status: 0x0"), block/blk-core.c ("I/O error, dev X, sector N"),
  // drivers/ata/libata-eh.c ("hard resetting link", "exception Emask"), scsi ("timing out command").
  if (contains(t, "resetting controller") || contains(t, "reset controller") || contains(t, "Resetting controller") ||
      contains(t, "controller is down") || contains(t, "Removing after probe failure"))
    return "controller-reset";
  if (contains(t, "resetting link") || contains(t, "link is slow to respond") || contains(t, "SATA link down") || contains(t, "limiting SATA link"))
    return "link-reset";
  if (contains(t, "timeout") || contains(t, "timed out") || contains(t, "timing out")) return "timeout";
  if (contains(t, "Abort status") || contains(t, "aborting") || contains(t, "exception Emask") || contains(t, "abort"))
    return "abort";
  if (contains(t, "I/O error") || contains(t, "critical medium error") || contains(t, "Medium Error") || contains(t, "failed command"))
    return "io-error";
  return std::nullopt;
}

std::optional<std::string> named_device(std::string_view text, const std::vector<std::string>& names) {
  for (const auto& n : names) {
    if (n.empty()) continue;
    for (size_t p = text.find(n); p != std::string_view::npos; p = text.find(n, p + 1)) {
      bool starts = p == 0 || !is_word_char(text[p - 1]);
      bool ends = p + n.size() == text.size() || !is_word_char(text[p + n.size()]);
      if (starts && ends) return n;
    }
  }
  return std::nullopt;
}

bool fails_device(std::string_view kind) { return kind == "controller-reset" || kind == "link-reset"; }

std::vector<std::string> kernel_names(const std::string& block_name, const std::string& nvme_controller, const std::string& sysfs_realpath) {
  std::vector<std::string> names;
  if (!block_name.empty()) names.push_back(block_name);
  if (!nvme_controller.empty()) names.push_back(nvme_controller);
  // /sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda
  std::string_view path = sysfs_realpath;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
    if (part.size() > 3 && part.starts_with("ata") && std::all_of(part.begin() + 3, part.end(), ::isdigit)) names.emplace_back(part);
    int colons = 0;
    bool digits_and_colons = !part.empty();
    for (char c : part) {
      if (c == ':') ++colons;
      else if (!std::isdigit(static_cast<unsigned char>(c))) digits_and_colons = false;
    }
    if (digits_and_colons && colons == 3) names.emplace_back(part);  // a SCSI address: "sd 2:0:0:0: ..."
  }
  return names;
}

KernelLogWatch::KernelLogWatch(std::vector<std::string> names, const char* path) : names_(std::move(names)), start_ns_(now_ns()) {
  fd_ = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    int e = errno;
    log_.note = fmt::format("the kernel log was not read: {}: {}{}", path, std::strerror(e),
                            e == EPERM || e == EACCES ? " (run as root to attach the kernel's lines about the device)" : "");
    return;
  }
  // From the run's start: the records already there are someone else's story.
  ::lseek(fd_, 0, SEEK_END);
  log_.read = true;
  thread_ = std::thread([this] { loop(); });
}

KernelLogWatch::~KernelLogWatch() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
}

void KernelLogWatch::drain() {
  char buf[8192];  // a record is at most 8 KiB less its prefix (CONSOLE_EXT_LOG_MAX)
  for (;;) {
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) {
      // The ring buffer overwrote records before we read them; the next read resumes after the gap.
      ++lost_;
      continue;
    }
    if (n <= 0) return;
    auto rec = parse_kmsg_record(std::string_view(buf, static_cast<size_t>(n)));
    if (!rec) continue;
    auto kind = kernel_event_kind(rec->text);
    if (!kind) continue;
    auto dev = named_device(rec->text, names_);
    if (!dev) continue;
    std::lock_guard lock(mutex_);
    if (log_.lines.size() >= KernelLog::kMaxLines) {
      ++log_.dropped;
      continue;
    }
    double kernel_s = static_cast<double>(rec->ts_us) / 1e6;
    log_.lines.push_back({kernel_s, kernel_s - static_cast<double>(start_ns_) / 1e9, rec->level, std::string(*kind), *dev, rec->text});
  }
}

void KernelLogWatch::loop() {
  while (!stop_.load()) {
    pollfd p{fd_, POLLIN, 0};
    ::poll(&p, 1, 200);
    drain();
  }
}

KernelLog KernelLogWatch::finish() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) drain();
  std::lock_guard lock(mutex_);
  KernelLog out = log_;
  if (lost_) out.note = fmt::format("the kernel's log buffer overran {} time{} while the device ran: some lines may be missing", lost_, lost_ == 1 ? "" : "s");
  return out;
}

}  // namespace diskvet::runner
