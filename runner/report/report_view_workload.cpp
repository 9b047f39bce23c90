// The decoder's workload part (see report_view.hpp): a workload, its result per direction with the
// interval series, steady state, sweep, burst, warmup and ramp; a matrix test's cells.
#include <fmt/format.h>

#include "runner/report/report_reader.hpp"

namespace diskvet::runner::report_reader {

namespace json = boost::json;

namespace {

constexpr Need kRequired = Need::required;

DirectionView direction(ObjectReader& r) {
  DirectionView d;
  d.total_ios = r.number("total_ios");
  d.iops = r.number("iops");
  d.bw_bytes = r.number("bw_bytes");
  ObjectReader lat = r.object("lat_ns");
  d.lat_mean_ns = lat.number("mean");
  if (const json::object* pct = lat.map("percentile")) {
    d.percentiles_ns = percentile_points(*lat.raw());
    auto exact = [&](const char* key) -> std::optional<double> {
      const json::value* v = pct->if_contains(key);
      return v && v->is_number() ? std::optional<double>(v->to_number<double>()) : std::nullopt;
    };
    d.lat_p50_ns = exact("50.000000");
    d.lat_p99_ns = exact("99.000000");
    d.lat_p9999_ns = exact("99.990000");
  }
  lat.open();  // fio's lat_ns: min, max, stddev, N, bins
  r.open();    // fio's job direction: io_bytes, runtime, slat_ns, clat_ns, ...
  return d;
}

ResultView result(ObjectReader& r) {
  ResultView res;
  {
    ObjectReader rd = r.object("read");
    res.read = direction(rd);
  }
  {
    ObjectReader wr = r.object("write");
    res.write = direction(wr);
  }
  res.intervals = r.list<IntervalView>("intervals", [](ObjectReader& iv) {
    IntervalView x;
    x.t_s = iv.number("t_s");
    x.dur_s = iv.number("dur_s");
    for (const char* dir : {"read", "write"}) {
      ObjectReader d = iv.object(dir);
      IntervalDirectionView& out = std::string_view(dir) == "read" ? x.read : x.write;
      out.iops = d.number("iops");
      out.bw_bytes = d.number("bw_bytes");
      out.lat_mean_ns = d.number("lat_mean_ns");
      out.lat_p99_ns = d.number("lat_p99_ns");
      d.open();  // bytes, ios and the other figures of the interval
    }
    iv.open();
    return x;
  });
  r.open();  // the whole of fio's job object (measurement_json.hpp)
  return res;
}

MeasurementWindowView measurement_window(ObjectReader& r) {
  MeasurementWindowView w;
  w.first_round = r.number("first_round");
  w.last_round = r.number("last_round");
  w.rounds = r.number("rounds");
  w.average = r.number("average");
  w.range_pct = r.number("range_pct");
  w.slope_pct = r.number("slope_pct");
  r.written({"steady", "note"});
  return w;
}

SteadyStateView steady_state(ObjectReader& r) {
  SteadyStateView s;
  s.attained = r.flag("attained");
  s.rounds_used = r.number("rounds_used");
  s.workload = r.text("workload");
  {
    ObjectReader c = r.object("criteria");
    s.max_excursion_pct = c.number("max_excursion_pct");
    s.max_slope_pct = c.number("max_slope_pct");
    c.written({"window_rounds", "max_rounds"});
  }
  s.rounds = r.list<RoundView>("rounds", [](ObjectReader& x) {
    x.written({"tracked", "randseed"});
    return RoundView{x.number("iops"), x.number("lat_mean_us")};
  });
  s.window = r.recorded<SteadyWindowView>("window", [](ObjectReader& w) {
    w.written({"mean", "min", "max", "excursion_pct", "slope_per_round", "slope_change_pct", "steady"});
    return SteadyWindowView{w.number("first_round"), w.number("rounds")};
  });
  s.measurement_window = r.recorded<MeasurementWindowView>("measurement_window", measurement_window);
  r.written({"required"});
  return s;
}

}  // namespace

WorkloadView read_workload(ObjectReader& r) {
  WorkloadView w;
  w.rw = r.text("rw", kRequired);
  w.bs = r.size("bs", kRequired);
  w.iodepth = r.number("iodepth", kRequired);
  w.numjobs = r.number("numjobs", kRequired);
  w.rwmixread = r.number("rwmixread");
  w.runtime_s = r.number("runtime_s");
  w.ramp_s = r.number("ramp_s");
  w.engine = r.text("engine");
  w.hipri = r.flag("hipri");
  w.fio = r.text("fio");
  w.write_data = r.text("write_data");
  w.ran = r.flag("ran", kRequired);
  w.error = r.text("error");
  w.skipped = r.text("skipped");
  w.result = r.recorded<ResultView>("result", result);
  w.steady_state = r.recorded<SteadyStateView>("steady_state", steady_state);
  w.sweep = r.recorded<SweepView>("sweep", [](ObjectReader& s) {
    SweepView v;
    v.points = s.list<SweepPointView>("points", [](ObjectReader& p) {
      p.written({"iodepth", "numjobs", "gain_pct"});
      return SweepPointView{p.number("iops"), p.number("outstanding"), p.number("lat_mean_us"), p.number("lat_p99_us")};
    });
    // The knee is an index into the points: a whole number below their count, else none.
    if (const auto k = s.number("knee")) {
      if (*k >= 0 && *k < static_cast<double>(v.points.size()) && *k == static_cast<double>(static_cast<size_t>(*k))) v.knee = static_cast<size_t>(*k);
      else s.problem(ReportProblem::Kind::out_of_range, "knee", fmt::format("{} is no index into {} points", *k, v.points.size()));
    }
    return v;
  });
  w.burst = r.recorded<BurstView>("burst", [](ObjectReader& b) {
    b.open();  // the step's figures (ramp_json.cpp)
    return BurstView{b.flag("found"), b.text("summary"), b.number("step_s"), b.number("before_iops"), b.number("after_iops")};
  });
  w.warmup = r.recorded<WarmupView>("warmup", [](ObjectReader& x) {
    x.written({"settled"});
    return WarmupView{x.number("elapsed_s"), x.numbers_in_place("iops")};
  });
  {
    ObjectReader ramp = r.object("ramp");
    w.ramp = ramp.list<RampIntervalView>("intervals", [](ObjectReader& iv) {
      RampIntervalView x{iv.number("t_s"), iv.number("dur_s"), std::nullopt, std::nullopt};
      {
        ObjectReader rd = iv.object("read");
        x.read_iops = rd.number("iops");
        rd.open();
      }
      {
        ObjectReader wr = iv.object("write");
        x.write_iops = wr.number("iops");
        wr.open();
      }
      iv.open();
      return x;
    });
    ramp.written({"bucket_s"});
  }
  w.littles_law = r.recorded<LittlesLawView>("littles_law", [](ObjectReader& l) {
    l.written({"configured_outstanding", "measured_outstanding", "sampled_inflight", "littles_outstanding", "polling", "job_cpu_busy_pct", "applies",
               "queue_kept_full"});
    return LittlesLawView{l.flag("runner_bound"), l.text("note")};
  });
  r.written({"offset_bytes", "size_bytes", "rate_iops", "fio_notes", "verify"});
  return w;
}

MatrixView read_matrix(ObjectReader& r) {
  MatrixView m;
  m.rwmixread = r.numbers("rwmixread");
  m.bs = r.numbers("bs");
  m.cells = r.list<MatrixCellView>("cells", [](ObjectReader& c) {
    c.written({"ran", "rounds", "error"});
    return MatrixCellView{c.number("rwmixread"), c.number("iops"), c.size("bs"), c.text("skipped")};
  });
  m.rounds_run = r.number("rounds_run");
  ObjectReader ss = r.object("steady_state");
  m.attained = ss.flag("attained");
  m.measurement_window = ss.recorded<MeasurementWindowView>("measurement_window", measurement_window);
  ss.written({"required", "criteria", "tracked_iops"});
  r.written({"tracked", "round_s", "note"});
  return m;
}

}  // namespace diskvet::runner::report_reader
