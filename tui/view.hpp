// Views: each screen and dialog draws the model into a Canvas. render() picks the screen, draws the
// frame (title, status line, key hints) and any dialog on top. Sizes below 80x24 get a notice.
#pragma once

#include "tui/canvas.hpp"
#include "tui/model.hpp"

namespace diskvet::tui {

inline constexpr int kMinWidth = 80, kMinHeight = 24;

void render(const Model& m, Canvas& c);

// The body of each screen, between the title row and the status row: rows [top, bottom).
struct Area {
  int x = 0, top = 1, width = 80, bottom = 22;
  int height() const { return bottom - top; }
};
void render_devices(const Model& m, Canvas& c, Area a);
void render_details(const Model& m, Canvas& c, Area a);
void render_suites(const Model& m, Canvas& c, Area a);
void render_confirm(const Model& m, Canvas& c, Area a);
void render_run(const Model& m, Canvas& c, Area a);
void render_results(const Model& m, Canvas& c, Area a);
void render_result_detail(const Model& m, Canvas& c, Area a);
void render_dialog(const Model& m, Canvas& c);

// Style of a verdict word.
Style verdict_style(runner::VerdictStatus s);

}  // namespace diskvet::tui
