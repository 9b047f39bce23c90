// Human-readable rendering of a Measurement: throughput, latency, the nines, CPU.
#pragma once

#include <string>

#include "runner/io/measurement.hpp"

namespace diskvet::runner {

std::string render_text(const Measurement& m, const std::string& filename);

}  // namespace diskvet::runner
