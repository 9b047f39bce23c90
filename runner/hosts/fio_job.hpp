// One host's fio job file for one workload of a suite: every host of a test gets the same workload,
// ramp, runtime, percentile list and start delay, so their measured windows line up; only the
// devices differ. The controller reads the files and sends them to the hosts' fio servers.
#pragma once

#include <string>
#include <vector>

#include "common/error.hpp"
#include "runner/io/workload.hpp"

namespace diskvet::runner {

struct FioJobSpec {
  Workload workload;
  std::vector<std::string> filenames;  // the host's held devices; empty only with the null engine
  double startdelay_s = 0;             // fio's startdelay: lines hosts up after the job files arrive
  std::vector<double> percentiles{50, 90, 99, 99.9, 99.99};
  std::string iops_log;                // fio's write_iops_log prefix; empty: no interval log
  double log_interval_s = 1;           // log_avg_msec
  // A workload sized by its io limit (preconditioning) stops after this long at the latest; 0: none.
  double time_cap_s = 0;
};

// The job file text: a [global] section (fio's names: direct=1, lat_percentiles=1, time_based,
// group_reporting so each host reports one result) and one [job] per device. An input error when the
// spec cannot be said in fio (no device for a real engine, a verifying workload).
Result<std::string> fio_job_file(const FioJobSpec& spec);

// fio's name for a backend ("io_uring", "psync", "null").
std::string fio_engine(BackendKind b);

}  // namespace diskvet::runner
