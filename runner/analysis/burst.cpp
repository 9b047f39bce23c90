// The burst-then-baseline step of an interval series (see burst.hpp).
#include "runner/analysis/burst.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace diskvet::runner {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  return (*mid + *std::max_element(v.begin(), mid)) / 2;
}

// "3000", "60", "12.5k", "1.20M": a level in a sentence, as the report's numbers read (human::count).
std::string level(double x) {
  if (x >= 1e6) return fmt::format("{:.2f}M", x / 1e6);
  if (x >= 1e4) return fmt::format("{:.1f}k", x / 1e3);
  if (x >= 10) return fmt::format("{:.0f}", x);
  return fmt::format("{:.1f}", x);
}

}  // namespace

std::optional<BurstStep> find_burst_step(std::span<const double> t_s, std::span<const double> dur_s, std::span<const double> iops,
                                         std::span<const double> bw_bytes, const BurstCriteria& c) {
  // Intervals of no length (a last, empty one) say nothing about a level.
  std::vector<size_t> idx;
  const size_t n_all = std::min({t_s.size(), dur_s.size(), iops.size()});
  for (size_t i = 0; i < n_all; ++i)
    if (dur_s[i] > 0 && std::isfinite(iops[i])) idx.push_back(i);
  const size_t n = idx.size();
  const size_t side = std::max<size_t>(c.min_side, 1);
  if (n < 2 * side) return std::nullopt;
  // Prefix sums of weight, weight x value and weight x value^2: every split's two-level squared
  // error in O(1).
  std::vector<double> w(n + 1, 0), wx(n + 1, 0), wxx(n + 1, 0);
  for (size_t k = 0; k < n; ++k) {
    const double d = dur_s[idx[k]], x = iops[idx[k]];
    w[k + 1] = w[k] + d;
    wx[k + 1] = wx[k] + d * x;
    wxx[k + 1] = wxx[k] + d * x * x;
  }
  auto sse = [&](size_t a, size_t b) {  // samples [a, b)
    const double sw = w[b] - w[a], s = wx[b] - wx[a];
    return sw > 0 ? std::max(0.0, (wxx[b] - wxx[a]) - s * s / sw) : 0.0;
  };
  const double total = sse(0, n);
  if (total <= 0) return std::nullopt;  // one level throughout
  size_t best = 0;
  double best_sse = total;
  for (size_t k = side; k + side <= n; ++k) {
    const double e = sse(0, k) + sse(k, n);
    if (e < best_sse) best_sse = e, best = k;
  }
  if (best == 0) return std::nullopt;
  std::vector<double> before, after, bw_before, bw_after;
  for (size_t k = 0; k < n; ++k) {
    (k < best ? before : after).push_back(iops[idx[k]]);
    if (idx[k] < bw_bytes.size()) (k < best ? bw_before : bw_after).push_back(bw_bytes[idx[k]]);
  }
  BurstStep b;
  b.before_iops = median(before);
  b.after_iops = median(after);
  b.explained = 1 - best_sse / total;
  if (b.before_iops < c.min_ratio * b.after_iops || b.before_iops <= 0 || b.explained < c.min_explained) return std::nullopt;
  b.before_mb_s = median(bw_before) / 1e6;
  b.after_mb_s = median(bw_after) / 1e6;
  b.step_s = t_s[idx[best]];
  b.burst_s = b.step_s - t_s[idx[0]];
  return b;
}

std::string describe(const BurstStep& b) {
  const double s = b.burst_s;
  const std::string span = s >= 120 ? fmt::format("{:.1f} min", s / 60) : fmt::format("{:.0f} s", s);
  return fmt::format("burst of {} IOPS for {}, then a baseline of {} IOPS", level(b.before_iops), span, level(b.after_iops));
}

}  // namespace diskvet::runner
