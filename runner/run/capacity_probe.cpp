// The address-integrity step on the engine's O_DIRECT target.
#include "runner/run/capacity_probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "runner/verify/verify_state.hpp"

namespace diskvet::runner {

namespace {

// Whole-block pread/pwrite on a descriptor of the target (O_DIRECT, as every job's).
class FdProbeDevice final : public ProbeDevice {
 public:
  explicit FdProbeDevice(int fd) : fd_(fd) {}
  int read(uint64_t offset_bytes, std::byte* buf, size_t len) override { return done(pread(fd_, buf, len, static_cast<off_t>(offset_bytes)), len); }
  int write(uint64_t offset_bytes, const std::byte* buf, size_t len) override {
    return done(pwrite(fd_, buf, len, static_cast<off_t>(offset_bytes)), len);
  }

 private:
  static int done(ssize_t r, size_t len) { return r == static_cast<ssize_t>(len) ? 0 : r < 0 ? errno : EIO; }
  int fd_;
};

}  // namespace

AddressProbeResult probe_capacity(const Target& target, const std::string& identity, uint64_t seed, const suites::AddressProbeSpec& spec,
                                  RunEvents& ev, const std::string& device, const std::atomic<bool>* stop, std::string& error) {
  auto fd = target.reopen();
  if (!fd) {
    error = fd.error().message();
    return {};
  }
  const uint32_t lbs = std::max<uint32_t>(512, target.info().logical_block_size);
  const uint32_t bs = std::max<uint32_t>(4096, lbs);
  FdProbeDevice dev(fd->get());
  AddressProbeOptions o;
  o.budget_bytes = spec.budget_bytes;
  o.flush_bytes = spec.flush_bytes;
  const auto start = std::chrono::steady_clock::now();
  auto progress = [&](const std::string& stage, double fraction) {
    const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ProgressEvent p{device, Phase::capacity_probe, "", fraction, elapsed_s, std::nullopt, stage};
    if (fraction > 0.01) p.eta_s = elapsed_s * (1 - fraction) / fraction;  // of this pass; bisection rounds follow a finding
    ev.on_progress(p);
  };
  return run_address_probe(dev, target.info().size_bytes, bs, lbs, identity_hash(identity), seed, o, progress, stop);
}

Rollup capacity_probe_rollup(const AddressProbeResult& r, const std::string& error) {
  Rollup v;
  if (!r.performed) {
    v.status = VerdictStatus::error;
    v.reasons.push_back("address-integrity probe could not run: " + error);
  } else if (r.failed()) {
    v.status = VerdictStatus::fail;
    v.reasons.push_back("address-integrity probe: " + r.summary());
  } else {
    v.status = VerdictStatus::pass;
  }
  return v;
}

}  // namespace diskvet::runner
