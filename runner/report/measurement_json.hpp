// JSON form of a Measurement in fio's field names and units (jobs[].read / jobs[].write), so that
// scripts written for fio's --output-format=json read diskvet's output unchanged.
#pragma once

#include <boost/json.hpp>

#include <string_view>

#include "runner/io/measurement.hpp"

namespace diskvet::runner {

// The percentiles printed and serialised, out to six nines as DiskSpd prints them.
inline constexpr double kReportedPercentiles[] = {1,  5,  10, 20, 30,   40,   50,    60,     70,      80,
                                                  90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 99.9999};

// fio's per-direction object: iops, bw_bytes, bw (KiB/s), io_bytes, io_kbytes, runtime (ms),
// total_ios, lat_ns{min,max,mean,stddev,N,percentile{"99.000000": ns}}, iops_{min,max,mean,stddev}.
boost::json::object direction_json(const Measurement& m, Direction d);
// One fio job object: jobname, job options, read, write, usr_cpu, sys_cpu (percent of one CPU over
// the window), plus diskvet's own: elapsed_s, ios_per_syscall, cpu_ns_per_io, errors, intervals.
boost::json::object job_json(const Measurement& m, std::string_view jobname, std::string_view filename);

void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const IntervalSample& s);
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const Stall& s);

}  // namespace diskvet::runner
