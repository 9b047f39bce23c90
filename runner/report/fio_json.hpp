// `diskvet io`'s document in fio's full JSON shape (--output-format=json and json+): every key fio's
// JSON readers look for (jobs[].trim, sync, slat_ns, clat_ns, latency_ns/us/ms, iodepth_*, ...),
// and with json+ the latency bins of lat_ns and clat_ns in fio's plat layout (runner/io/fio_plat).
//
// What diskvet measures and fio names differently: diskvet stamps an I/O immediately before the
// submission that carries it and at its reaped completion, so its one latency is fio's lat; clat_ns
// carries that same measurement (an upper bound of fio's clat: the submission is inside it), and
// slat_ns is not measured (N 0, as fio prints it when slat is off). What diskvet does not track
// (I/O depth distributions, context switches, page faults) is present as zeros, so readers that
// index those keys find them.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <string_view>

#include "devices/disk_stats.hpp"
#include "runner/io/measurement.hpp"

namespace diskvet::runner {

enum class FioOutputFormat { json, json_plus };

// fio's disk_util entry: the device's counters over the run and the wall time they cover.
struct FioDiskUtil {
  devices::DiskStats delta;
  double wall_ms = 0;
};

// fio's latency object: min, max, mean, stddev, N, percentile (when N > 0) and, for json+, bins
// ("VALUE_NS": count, fio's plat bins, non-empty ones only, as fio writes them).
boost::json::object fio_lat_json(const LatencyHistogram& h, FioOutputFormat format);

// fio's latency_ns / latency_us / latency_ms objects: the percentage of all I/Os of both
// directions in each of fio's ranges (io_u.c io_u_mark_latency), each histogram bucket counted at
// its upper edge (a bucket that straddles a range boundary counts in the higher range).
boost::json::object fio_latency_ranges(const Measurement& m);

// The whole document: {"fio version", "timestamp", "timestamp_ms", "time", "diskvet_version",
// "fio_equivalent", "jobs": [job], "disk_util": [...]}. `unix_ms` is when the run ended; `disk`
// (a block device's counters, ramp included as fio counts them) fills disk_util, else it is empty.
boost::json::object fio_io_document(const Measurement& m, std::string_view filename, FioOutputFormat format, int64_t unix_ms,
                                    const std::optional<FioDiskUtil>& disk = std::nullopt);

}  // namespace diskvet::runner
