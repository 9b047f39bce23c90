// SATA/SAS error and self-test logs (issue 26), read from `smartctl --json` and judged across a run:
// the ATA SMART Extended Comprehensive error log (GP log 03h, `-l xerror`), else the Summary error
// log (SMART log 01h, `-l error`), and the SMART self-test log (06h) of ATA/ACS; the SAS error
// counter log (SPC-4 log pages 02h write, 03h read, 05h verify) and self-test results log (10h). Errors the drive logged during the
// run are judged one by one: media and data errors FAIL with the drive's words (smartctl's decoding
// of the error and status registers), refusals and link faults are listed with why they do not.
// Pure: the snapshots come from smartctl.cpp.
#pragma once

#include <boost/json/fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device.hpp"

namespace diskvet::devices {

// The error logs, the self-test log and the SAS error counters of one `smartctl --json` document,
// into h (fields it does not hold stay as they were).
void read_smart_logs(const boost::json::value& doc, Health& h);
// The same from the document's text; nullopt when it is not a JSON object.
std::optional<Health> parse_smart_logs(std::string_view json_text);

struct SmartLogJudgement {
  bool fails = false;
  std::string why;
};
// UNC (uncorrectable data), IDNF (address not found), AMNF (address mark not found), TK0NF, CCTO
// and a device fault FAIL; ABRT alone (a command the drive refused), ICRC (a frame corrupted on the
// link) and the removable-media and write-protect flags do not. smartctl names the flags only for
// commands whose registers it knows; otherwise the registers decide, and an error it cannot place
// fails (fail closed).
SmartLogJudgement judge_ata_error(const AtaErrorLogEntry& e);
// 0h (completed without error), 1h and 2h (aborted by the host, interrupted by a reset) and Fh
// (still running) do not fail; 3h-8h (a fatal error, a failed element) and reserved values do.
SmartLogJudgement judge_ata_self_test(const AtaSelfTestLogEntry& e);
// SPC-4's self-test results: 0h (completed), 1h and 2h (aborted by a command or a reset) and Fh (in
// progress) do not fail; 3h (an error that left it incomplete), 4h-7h (a failed segment) and
// reserved values do.
SmartLogJudgement judge_scsi_self_test(const ScsiSelfTestLogEntry& e);

// The SAS self-test results log of a `smartctl --json` document (scsi_self_test_0..19, newest first).
// smartctl prints nothing for an empty log, so with no entries the log counts as read only when the
// document is a SCSI device's and smartctl's exit status has no failed-command bit (2); else nullopt.
std::optional<std::vector<ScsiSelfTestLogEntry>> scsi_self_test_log_of(const boost::json::value& doc);
// "Background long: Completed, segment failed (result 4h), segment 3, first failing LBA 1234, at
// 20001 power-on hours, sense Medium Error (ASC 11h, ASCQ 00h)"
std::string describe_scsi_self_test(const ScsiSelfTestLogEntry& e);

struct SmartLogFinding {
  std::string log;  // "ATA extended comprehensive error log", "ATA summary error log", "ATA self-test log", "SCSI error counter log", "SCSI self-test log"
  std::optional<uint64_t> number;  // an ATA error's number
  std::optional<uint64_t> lba;
  bool fails = false;
  std::string words;  // the entry in the drive's words
  std::string why;
};

struct SmartLogReview {
  std::string error_log;  // the ATA error log compared: "extended comprehensive", "summary"; empty: none
  std::optional<uint64_t> errors_before, errors_after;  // the drive's error count in that log
  uint64_t new_errors = 0;
  uint64_t unseen = 0;  // new errors the log read after the run no longer holds, or did not print
  std::optional<uint64_t> new_self_tests;  // nullopt: no self-test log (ATA's or SAS's) in both snapshots
  std::string self_test_log;               // the one compared: "ATA", "SCSI"; empty: none
  bool scsi_counters = false;              // the SAS error counter log was in both snapshots
  std::vector<SmartLogFinding> findings;   // oldest first within each log
  std::vector<std::string> problems;       // each FAILs the device
  std::vector<std::string> notes;          // listed, with why they do not
};

// nullopt when neither snapshot pair carries any of the logs (no smartctl, NVMe, an old smartctl).
std::optional<SmartLogReview> review_smart_logs(const Health& before, const Health& after);

}  // namespace diskvet::devices
