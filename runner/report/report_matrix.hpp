// A matrix test's table (mix x block size, IOPS over the measurement window) from the decoded
// report, for the text and HTML renderers: cells are matched by their mix and block size, not their
// position, and anything missing reads as not measured.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/report/report_view.hpp"

namespace diskvet::runner {

struct MatrixTable {
  std::vector<double> mixes;        // read percentages, columns, in the report's order
  std::vector<uint64_t> bs_bytes;   // rows, smallest first
  std::vector<std::vector<std::optional<double>>> iops;  // [row][column]
  std::vector<std::vector<bool>> skipped;                // [row][column]
  std::vector<std::string> skip_reasons;                 // distinct, in order
  std::string window;               // "rounds 3-7 of 7, steady" / "NOT steady after 25 rounds"
};

// The table of a decoded matrix test.
MatrixTable matrix_table(const MatrixView& m);

// "100/0" for a read percentage of 100.
std::string mix_label(double read_pct);
// "0.5 KiB", "4 KiB", "1 MiB".
std::string bs_label(uint64_t bs_bytes);

// The text table, indented two spaces.
std::string matrix_text(const std::string& test_id, const MatrixTable& t);
// An HTML table and an SVG plot (IOPS against block size, one line per mix).
std::string matrix_html(const std::string& test_id, const MatrixTable& t);

}  // namespace diskvet::runner
