// The address-integrity probe: passes of write, flush, read back over a plan, then bisection.
#include "runner/verify/address_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <boost/json/array.hpp>

#include "common/units.hpp"

namespace diskvet::runner {

namespace {

constexpr size_t kEvidencePerKind = 4;

BlockHeader header_of(const std::byte* block) {
  BlockHeader h;
  std::memcpy(&h, block, sizeof h);
  return h;
}

struct AlignedFree {
  void operator()(std::byte* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<std::byte, AlignedFree>;

AlignedBuffer aligned_buffer(size_t bytes) {
  void* mem = nullptr;
  if (posix_memalign(&mem, 4096, bytes) != 0) return nullptr;
  return AlignedBuffer(static_cast<std::byte*>(mem));
}

// One probe over a plan, and the bisection after it.
class Prober {
 public:
  Prober(ProbeDevice& dev, AddressProbeResult& r, uint32_t lbs, uint64_t device_hash, uint64_t seed, const ProbeProgress& progress,
         const std::atomic<bool>* stop)
      : dev_(dev), r_(r), lbs_(lbs), device_hash_(device_hash), seed_(seed), progress_(progress), stop_(stop) {}

  bool stopped() const { return stop_ && stop_->load(); }

  // Pre-read, write (high addresses first, so a low alias is written last and wins), flush, read back.
  bool pass(const std::vector<ProbeExtent>& extents, const AddressPlan& plan, uint64_t generation, const std::string& stage) {
    const uint32_t bs = plan.block_bytes;
    uint32_t most = 1;
    for (const auto& e : extents) most = std::max(most, e.blocks);
    const size_t chunk = std::max<size_t>(most, kMaxProbeExtentBytes / bs);
    AlignedBuffer buf = aligned_buffer(chunk * bs);
    if (!buf) return false;
    std::vector<std::vector<uint32_t>> old_crc(extents.size());
    std::vector<std::vector<int>> pre_error(extents.size()), write_error(extents.size());
    const uint64_t flush_chunks = (plan.flush_blocks + chunk - 1) / chunk;
    const double steps = static_cast<double>(extents.size() * 3 + flush_chunks + 1);
    double done = 0;
    auto tick = [&](const char* what) {
      done += 1;
      if (progress_) progress_(stage + ": " + what, std::min(1.0, done / steps));
    };
    for (size_t i = 0; i < extents.size() && !stopped(); ++i, tick("reading what was there")) {
      const ProbeExtent& e = extents[i];
      pre_error[i] = transfer(false, e, bs, buf.get());
      for (uint32_t b = 0; b < e.blocks; ++b) old_crc[i].push_back(pre_error[i][b] ? 0 : crc32c(0, buf.get() + size_t{b} * bs, bs));
    }
    for (size_t j = extents.size(); j-- > 0 && !stopped(); tick("writing")) {
      const ProbeExtent& e = extents[j];
      for (uint32_t b = 0; b < e.blocks; ++b) fill_block(buf.get() + size_t{b} * bs, identity(e.first_block + b, generation, bs), crc32c);
      write_error[j] = transfer(true, e, bs, buf.get());
      r_.bytes_written += uint64_t{e.blocks} * bs;
    }
    // The flush: blocks of this pass at their own addresses, so data a cache gave back instead of the
    // media is still recognised (as aliasing) if it lands on a probe block.
    for (uint64_t b = plan.flush_first_block; b < plan.flush_first_block + plan.flush_blocks && !stopped(); b += chunk, tick("flushing")) {
      const uint64_t n = std::min<uint64_t>(chunk, plan.flush_first_block + plan.flush_blocks - b);
      for (uint64_t k = 0; k < n; ++k) fill_block(buf.get() + k * bs, identity(b + k, generation, bs), crc32c);
      (void)dev_.write(b * bs, buf.get(), n * bs);  // a flush write that fails flushes less; the probe blocks judge
      r_.bytes_written += n * bs;
    }
    for (size_t i = 0; i < extents.size() && !stopped(); ++i, tick("reading back")) {
      const ProbeExtent& e = extents[i];
      const std::vector<int> read_error = transfer(false, e, bs, buf.get());
      for (uint32_t b = 0; b < e.blocks; ++b) {
        const uint64_t block = e.first_block + b;
        AddressEvidence ev{block, AddressFault::garbage, 0, 0};
        std::optional<AddressFault> fault;
        if (write_error[i][b]) fault = AddressFault::write_error, ev.error = write_error[i][b];
        else if (read_error[b] || pre_error[i][b]) fault = AddressFault::read_error, ev.error = read_error[b] ? read_error[b] : pre_error[i][b];
        else {
          uint64_t tag_lba = 0;
          fault = classify_block(buf.get() + size_t{b} * bs, identity(block, generation, bs), old_crc[i][b], crc32c, tag_lba);
          ev.tag_block = tag_lba * lbs_ / bs;
        }
        record(block, fault, ev);
      }
    }
    return !stopped();
  }

  // Reads or writes an extent in one I/O; when that fails, block by block, so an error names the
  // blocks that have it and not their neighbours. The errno of each block (0: done).
  std::vector<int> transfer(bool write, const ProbeExtent& e, uint32_t bs, std::byte* buf) {
    auto io = [&](uint64_t block, std::byte* at, size_t len) { return write ? dev_.write(block * bs, at, len) : dev_.read(block * bs, at, len); };
    std::vector<int> errs(e.blocks, io(e.first_block, buf, size_t{e.blocks} * bs));
    if (errs[0] && e.blocks > 1)
      for (uint32_t b = 0; b < e.blocks; ++b) errs[b] = io(e.first_block + b, buf + size_t{b} * bs, bs);
    return errs;
  }

  void record(uint64_t block, std::optional<AddressFault> fault, AddressEvidence ev) {
    ++r_.blocks_checked;
    if (!fault) {
      good_.push_back(block);
      return;
    }
    ev.fault = *fault;
    ++r_.faults[static_cast<size_t>(*fault)];
    const bool lowest = !r_.lowest_bad_block || block < *r_.lowest_bad_block;
    if (lowest) r_.lowest_bad_block = block;
    if (*fault == AddressFault::aliased && ev.tag_block != block) {
      const uint64_t period = block > ev.tag_block ? block - ev.tag_block : ev.tag_block - block;
      if (!r_.wrap_period_blocks || period < *r_.wrap_period_blocks) r_.wrap_period_blocks = period;
    }
    const auto same = std::count_if(r_.evidence.begin(), r_.evidence.end(), [&](const AddressEvidence& e) { return e.fault == ev.fault; });
    if (lowest || static_cast<size_t>(same) < kEvidencePerKind) r_.evidence.push_back(ev);
  }

  // The highest good block below the lowest bad one.
  std::optional<uint64_t> highest_good_below(uint64_t bad) const {
    std::optional<uint64_t> g;
    for (uint64_t b : good_)
      if (b < bad && (!g || b > *g)) g = b;
    return g;
  }

 private:
  BlockIdentity identity(uint64_t block, uint64_t generation, uint32_t bs) const {
    return BlockIdentity{device_hash_, block * (bs / lbs_), generation, seed_, bs};
  }

  ProbeDevice& dev_;
  AddressProbeResult& r_;
  uint32_t lbs_;
  uint64_t device_hash_, seed_;
  const ProbeProgress& progress_;
  const std::atomic<bool>* stop_;
  std::vector<uint64_t> good_;
};

}  // namespace

std::string_view to_string(AddressFault f) {
  switch (f) {
    case AddressFault::aliased: return "aliased";
    case AddressFault::zeros: return "zeros";
    case AddressFault::stale: return "stale";
    case AddressFault::garbage: return "garbage";
    case AddressFault::write_error: return "write-error";
    case AddressFault::read_error: return "read-error";
  }
  return "?";
}

std::optional<AddressFault> classify_block(const std::byte* block, const BlockIdentity& expected, uint32_t old_crc, Crc32cFn crc,
                                           uint64_t& tag_lba) {
  if (block_matches(block, expected, crc)) return std::nullopt;
  const uint32_t bs = expected.bs_bytes;
  if (std::all_of(block, block + bs, [](std::byte b) { return b == std::byte{0}; })) return AddressFault::zeros;
  const BlockHeader h = header_of(block);
  // A whole verification block, checked against its own header.
  const bool whole = h.magic == kVerifyMagic && h.bs_bytes == bs && block_matches(block, BlockIdentity{h.device_hash, h.lba, h.generation, h.seed, bs}, crc);
  if (whole && h.device_hash == expected.device_hash && h.seed == expected.seed && h.lba != expected.lba) {
    tag_lba = h.lba;
    return AddressFault::aliased;
  }
  if (whole || crc(0, block, bs) == old_crc) return AddressFault::stale;
  return AddressFault::garbage;
}

uint64_t AddressProbeResult::bad_blocks() const {
  uint64_t n = 0;
  for (uint64_t f : faults) n += f;
  return n;
}

std::string AddressProbeResult::summary() const {
  if (!performed) return "not run";
  const std::string scope = fmt::format("{} blocks of {} over the claimed {}", blocks_checked, format_bytes(block_bytes), format_bytes(claimed_bytes));
  if (!failed())
    return fmt::format("every address is real storage: {} read back what was written after {} of flush writes{}", scope, format_bytes(flush_bytes),
                       interrupted ? " (interrupted)" : "");
  std::string kinds;
  for (size_t k = 0; k < kAddressFaultKinds; ++k)
    if (faults[k]) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", faults[k], to_string(static_cast<AddressFault>(k)));
  std::string first;
  for (const auto& e : evidence)
    if (lowest_bad_block && e.block == *lowest_bad_block) {
      first = fmt::format("; first: block {} (offset {}) ", e.block, e.block * block_bytes);
      if (e.fault == AddressFault::aliased) first += fmt::format("carries the tag of block {} (offset {})", e.tag_block, e.tag_block * block_bytes);
      else if (e.error) first += fmt::format("{} ({})", to_string(e.fault), std::strerror(e.error));
      else first += "reads back " + std::string(to_string(e.fault));
    }
  return fmt::format("fake capacity: claims {}, stores about {} ({} of {} bad: {}){}{}", format_bytes(claimed_bytes), format_bytes(real_bytes),
                     bad_blocks(), scope, kinds, first,
                     wrap_period_blocks ? fmt::format("; addresses wrap every {}", format_bytes(*wrap_period_blocks * block_bytes)) : "");
}

AddressProbeResult run_address_probe(ProbeDevice& dev, uint64_t capacity_bytes, uint32_t block_bytes, uint32_t logical_block_bytes,
                                     uint64_t device_hash, uint64_t seed, const AddressProbeOptions& options, const ProbeProgress& progress,
                                     const std::atomic<bool>* stop) {
  AddressProbeResult r;
  r.claimed_bytes = capacity_bytes;
  r.block_bytes = block_bytes;
  r.budget_bytes = options.budget_bytes ? options.budget_bytes : default_probe_budget_bytes(capacity_bytes);
  const uint64_t flush = options.flush_bytes ? options.flush_bytes : default_probe_flush_bytes(capacity_bytes, r.budget_bytes);
  const AddressPlan plan = plan_addresses(capacity_bytes, block_bytes, r.budget_bytes, flush, seed);
  r.flush_bytes = plan.flush_blocks * block_bytes;
  r.blocks_planned = plan.blocks();
  r.performed = true;
  Prober p(dev, r, logical_block_bytes, device_hash, seed, progress, stop);
  uint64_t generation = 1;
  if (!p.pass(plan.extents, plan, generation, "address plan")) {
    r.interrupted = true;
    return r;
  }
  // Bisection between the highest good block and the lowest bad one, until they are neighbours.
  while (r.lowest_bad_block && r.bisect_rounds < options.max_rounds) {
    const uint64_t bad = *r.lowest_bad_block;
    const auto good = p.highest_good_below(bad);
    if (!good || *good + 1 >= bad) break;
    auto extents = bisection_extents(*good, bad, options.bisect_per_round, plan.flush_first_block, plan.flush_first_block + plan.flush_blocks);
    if (extents.empty()) break;
    ++r.bisect_rounds;
    if (!p.pass(extents, plan, ++generation, fmt::format("bisection round {}", r.bisect_rounds))) {
      r.interrupted = true;
      break;
    }
  }
  r.real_bytes = capacity_bytes;
  if (r.lowest_bad_block) {
    r.highest_good_block = p.highest_good_below(*r.lowest_bad_block);
    uint64_t real_blocks = *r.lowest_bad_block;
    if (r.wrap_period_blocks) real_blocks = std::min(real_blocks, *r.wrap_period_blocks);
    r.real_bytes = real_blocks * block_bytes;
  }
  std::sort(r.evidence.begin(), r.evidence.end(), [](const AddressEvidence& a, const AddressEvidence& b) { return a.block < b.block; });
  return r;
}

boost::json::object address_probe_json(const AddressProbeResult& r) {
  boost::json::object o;
  o["performed"] = r.performed;
  o["verdict"] = !r.performed ? "NOT-RUN" : r.failed() ? "FAIL" : r.interrupted ? "INCOMPLETE" : "PASS";
  o["claimed_bytes"] = r.claimed_bytes;
  o["real_bytes"] = r.real_bytes;
  o["block_bytes"] = r.block_bytes;
  o["budget_bytes"] = r.budget_bytes;
  o["flush_bytes"] = r.flush_bytes;
  o["blocks_planned"] = r.blocks_planned;
  o["blocks_checked"] = r.blocks_checked;
  o["bytes_written"] = r.bytes_written;
  o["bisect_rounds"] = r.bisect_rounds;
  o["interrupted"] = r.interrupted;
  boost::json::object faults;
  for (size_t k = 0; k < kAddressFaultKinds; ++k) faults[to_string(static_cast<AddressFault>(k))] = r.faults[k];
  o["faults"] = std::move(faults);
  if (r.lowest_bad_block) o["lowest_bad_offset_bytes"] = *r.lowest_bad_block * r.block_bytes;
  if (r.highest_good_block) o["highest_good_offset_bytes"] = *r.highest_good_block * r.block_bytes;
  if (r.wrap_period_blocks) o["wrap_period_bytes"] = *r.wrap_period_blocks * r.block_bytes;
  boost::json::array ev;
  for (const auto& e : r.evidence) {
    boost::json::object x{{"offset_bytes", e.block * r.block_bytes}, {"fault", to_string(e.fault)}};
    if (e.fault == AddressFault::aliased) x["tag_offset_bytes"] = e.tag_block * r.block_bytes;
    if (e.error) x["errno"] = e.error;
    ev.push_back(std::move(x));
  }
  o["evidence"] = std::move(ev);
  o["summary"] = r.summary();
  return o;
}

}  // namespace diskvet::runner
