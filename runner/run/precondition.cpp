// Preconditioning pass: one engine run with an I/O limit of N capacities and the time cap as runtime.
#include "runner/run/precondition.hpp"

#include <fmt/format.h>

#include "runner/io/engine.hpp"
#include "runner/run/step_observer.hpp"

namespace diskvet::runner {

Workload precondition_workload(const Target& target, Region region, const suites::PreconditionSpec& spec, double limit_s) {
  Workload w;
  w.rw = Pattern::write;
  w.bs_bytes = spec.bs_bytes;
  w.iodepth = spec.iodepth;
  w.numjobs = spec.numjobs;
  w.offset_bytes = region.offset_bytes;
  w.size_bytes = region.size_bytes;
  w.io_limit_bytes = static_cast<uint64_t>(spec.capacities * static_cast<double>(region.size_bytes));
  w.runtime_s = limit_s > 0 ? limit_s : 30 * 86400.0;  // the I/O limit ends it first
  w.ramp_s = 0;
  if (target.is_null()) w.engine = BackendKind::null;  // tests and demos without a device
  return w;
}

PreconditionRecord precondition(const Target& target, Region region, const suites::PreconditionSpec& spec, double limit_s,
                                RunEvents& events, const std::string& device, const std::atomic<bool>* stop, uint64_t seed) {
  PreconditionRecord rec;
  rec.capacities_target = spec.capacities;
  Workload w = precondition_workload(target, region, spec, limit_s);
  w.seed = seed;
  auto valid = validate(w, target.info().size_bytes, target.info().logical_block_size);
  if (!valid) {
    rec.reason = valid.error().message();
    return rec;
  }
  rec.fio = fio_command_line(*valid, target.info().path);
  StepContext ctx{&events, device, Phase::precondition, "", -1, fmt::format("{:.1f} capacities of {} bytes", spec.capacities, region.size_bytes)};
  StepObserver obs(ctx, stop);
  auto m = run_workload(*valid, target, obs.control());
  rec.performed = true;
  if (!m) {
    rec.reason = m.error().message();
    return rec;
  }
  rec.bytes_written = m->of(Direction::write).bytes;
  rec.bytes_sent = m->write_bytes_issued;
  rec.elapsed_s = m->elapsed_s;
  rec.capacities_written = static_cast<double>(rec.bytes_written) / static_cast<double>(valid->size_bytes);
  rec.completed = m->io_limit_reached && m->io_errors == 0;
  rec.capped = !rec.completed && !m->interrupted && m->io_errors == 0;
  if (m->io_errors) rec.reason = fmt::format("{} I/O errors while preconditioning", m->io_errors);
  else if (m->interrupted) rec.reason = "interrupted";
  else if (rec.capped) rec.reason = fmt::format("stopped by the time cap ({:.0f}s) after {:.2f} of {:.2f} capacities", limit_s, rec.capacities_written, spec.capacities);
  return rec;
}

}  // namespace diskvet::runner
