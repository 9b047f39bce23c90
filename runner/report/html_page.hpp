// The frame of every HTML page diskvet writes (report, compare, fleet): one self-contained file with
// its stylesheet inline, readable on a phone (fluid width, plots that shrink, tables that scroll)
// and printable on A4 (print stylesheet, a page per device). No script, no font, no network.
#pragma once

#include <string>
#include <string_view>

namespace diskvet::runner {

std::string html_page(std::string_view title, std::string_view body);
// A verdict as a coloured badge: PASS, FAIL, INCONCLUSIVE, NOT-JUDGED, NOT-EVALUATED, ERROR.
std::string verdict_badge(std::string_view status);
// Worst first: FAIL, ERROR, INCONCLUSIVE, NOT-EVALUATED, NOT-JUDGED, anything else, PASS.
int verdict_rank(std::string_view status);

}  // namespace diskvet::runner
