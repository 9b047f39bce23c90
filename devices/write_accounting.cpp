// The write accounting: a drive's host-write counter against the bytes sent to it.
#include "devices/write_accounting.hpp"

#include <fmt/format.h>

#include "common/units.hpp"

namespace diskvet::devices {

namespace {

struct Counter {
  std::string name;
  uint64_t before = 0, after = 0, unit_bytes = 0;
};

std::optional<Counter> counter_of(const Health& before, const Health& after) {
  if (before.data_units_written && after.data_units_written)
    return Counter{"NVMe Data Units Written", *before.data_units_written, *after.data_units_written, kNvmeDataUnitBytes};
  if (before.ata_written_units && after.ata_written_units && after.ata_written_unit_bytes &&
      before.ata_written_unit_bytes == after.ata_written_unit_bytes)
    return Counter{"ATA attribute 241 " + after.ata_written_attribute, *before.ata_written_units, *after.ata_written_units,
                   after.ata_written_unit_bytes};
  return std::nullopt;
}

// The result and its words from the counted and sent bytes.
void judge(WriteAccounting& a) {
  const std::string sent_by = a.sent_source != "kernel"  ? "diskvet sent it"
                              : a.passthrough_bytes ? fmt::format("this host's kernel and diskvet's NVMe passthrough ({}) sent it", format_bytes(a.passthrough_bytes))
                                                    : "this host's kernel sent it";
  if (a.counted_bytes + a.tolerance_bytes < a.sent_bytes) {
    a.result = WriteCount::counted_less;
    a.words = fmt::format("{}: the drive counted {} written for {} {} sent (compression, deduplication or a counter that lies)",
                          a.counter, format_bytes(a.counted_bytes), format_bytes(a.sent_bytes), a.sent_source == "kernel" ? "the host" : "diskvet");
  } else if (a.counted_bytes > a.sent_bytes + a.tolerance_bytes) {
    a.result = WriteCount::counted_more;
    a.words = fmt::format("{}: the drive counted {} written but {} {}: a writer this host cannot see (another host on a shared namespace, "
                          "passthrough commands) or a counter that lies",
                          a.counter, format_bytes(a.counted_bytes), sent_by, format_bytes(a.sent_bytes));
  } else {
    a.result = WriteCount::agrees;
    a.words = fmt::format("{}: the drive counted {} written, {} {} (within one counter unit, {})", a.counter, format_bytes(a.counted_bytes),
                          sent_by, format_bytes(a.sent_bytes), format_bytes(a.tolerance_bytes));
  }
}

constexpr uint64_t k32MiB = 32ull << 20;
// Fewer units than this could match 32 MiB units by chance (one unit is within one unit of 40 MiB).
constexpr uint64_t kMinUnitsToNameAUnit = 16;

std::optional<uint64_t> sectors_grew(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  if (!before || !after || *after < *before) return std::nullopt;
  return (*after - *before) * 512;
}

}  // namespace

std::string_view to_string(WriteCount c) {
  switch (c) {
    case WriteCount::agrees: return "agrees";
    case WriteCount::counted_less: return "counted-less";
    case WriteCount::counted_more: return "counted-more";
  }
  return "agrees";
}

std::optional<WriteAccounting> account_writes(const Health& before, const Health& after, uint64_t diskvet_bytes, uint64_t uncounted_bytes) {
  auto c = counter_of(before, after);
  if (!c) return std::nullopt;
  WriteAccounting a;
  a.counter = c->name;
  a.unit_bytes = c->unit_bytes;
  // A counter that went backwards (a drive reset or replaced between the snapshots) counted nothing.
  a.counted_units = c->after >= c->before ? c->after - c->before : 0;
  a.counted_bytes = a.counted_units * a.unit_bytes;
  a.tolerance_bytes = a.unit_bytes;
  a.diskvet_bytes = diskvet_bytes;
  a.passthrough_bytes = std::min(uncounted_bytes, diskvet_bytes);
  // What diskvet sent through the block layer, the part the kernel's counters can see.
  const uint64_t counted_by_kernel = diskvet_bytes - a.passthrough_bytes;
  a.device_kernel_bytes = sectors_grew(before.device_sectors_written, after.device_sectors_written);
  if (auto host = sectors_grew(before.host_sectors_written, after.host_sectors_written)) {
    a.sent_bytes = *host + a.passthrough_bytes;
    a.sent_source = "kernel";
  } else {
    a.sent_bytes = diskvet_bytes;
    a.sent_source = "diskvet";
  }
  if (a.device_kernel_bytes && *a.device_kernel_bytes > counted_by_kernel + kOtherWriterToleranceBytes)
  {
    a.other_writer_bytes = *a.device_kernel_bytes - counted_by_kernel;
    a.other_writer = fmt::format("this host's kernel sent the device {} during the run and diskvet {}: another program wrote {} to it, so "
                                 "the run's numbers are not the drive's alone",
                                 format_bytes(*a.device_kernel_bytes), format_bytes(counted_by_kernel), format_bytes(*a.other_writer_bytes));
  }

  judge(a);
  // Attribute 241 named Total_LBAs_Written is taken in the drive's logical blocks, as its name says
  // and smartctl's drive database assumes; some drives that name it so count 32 MiB units. A growth
  // that is, to one such unit, exactly what was sent in 32 MiB units (and large enough that this is
  // no coincidence) is that unit: named, and judged in it.
  const bool lba_named = a.counter == "ATA attribute 241 Total_LBAs_Written";
  if (lba_named && a.result != WriteCount::agrees && a.counted_units >= kMinUnitsToNameAUnit) {
    WriteAccounting in_32mib = a;
    in_32mib.unit_bytes = in_32mib.tolerance_bytes = k32MiB;
    in_32mib.counted_bytes = a.counted_units * k32MiB;
    judge(in_32mib);
    if (in_32mib.result == WriteCount::agrees) {
      in_32mib.words += fmt::format(": this drive counts attribute 241 in 32 MiB units, not the {0}-byte logical blocks its name says (its growth, {1} "
                                    "units, is 1/{2} of the {0}-byte blocks sent)",
                                    a.unit_bytes, a.counted_units, k32MiB / a.unit_bytes);
      return in_32mib;
    }
  }
  if (lba_named) a.words += fmt::format(" (attribute 241 taken in {}-byte logical blocks, as its name says)", a.unit_bytes);
  return a;
}

std::optional<WriteAmplification> write_amplification(const Health& before, const Health& after) {
  if (!before.data_units_written || !after.data_units_written) return std::nullopt;
  WriteAmplification w;
  if (!before.ocp_physical_bytes_written || !after.ocp_physical_bytes_written) {
    const std::string& why = !after.ocp_log_absent.empty() ? after.ocp_log_absent : before.ocp_log_absent;
    w.words = why.empty() ? "the drive has no OCP SMART / Health Information Extended log (log page C0h): no write amplification to show" : why;
    return w;
  }
  w.available = true;
  const uint64_t physical_before = *before.ocp_physical_bytes_written, physical_after = *after.ocp_physical_bytes_written;
  w.physical_bytes = physical_after >= physical_before ? physical_after - physical_before : 0;
  const uint64_t units = *after.data_units_written >= *before.data_units_written ? *after.data_units_written - *before.data_units_written : 0;
  w.host_bytes = units * kNvmeDataUnitBytes;
  if (*w.host_bytes == 0) {
    w.words = fmt::format("the drive wrote {} to its media and counted no host writes during the run: no ratio (evidence, not judged)",
                          format_bytes(*w.physical_bytes));
    return w;
  }
  w.factor = static_cast<double>(*w.physical_bytes) / static_cast<double>(*w.host_bytes);
  w.words = fmt::format("{:.2f}: the drive wrote {} to its media (OCP Physical Media Units Written) for {} of host writes it counted (NVMe Data "
                        "Units Written) during the run (evidence, not judged)",
                        *w.factor, format_bytes(*w.physical_bytes), format_bytes(*w.host_bytes));
  return w;
}

}  // namespace diskvet::devices
