// Canvas drawing primitives, all clipped to the grid.
#include "tui/canvas.hpp"

#include <algorithm>

namespace diskvet::tui {

Canvas::Canvas(int width, int height)
    : width_(std::max(width, 1)), height_(std::max(height, 1)), cells_(static_cast<size_t>(width_ * height_)) {}

Cell* Canvas::cell(int x, int y) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return nullptr;
  return &cells_[static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(x)];
}

int Canvas::text(int x, int y, std::string_view s, Style style) {
  for (char ch : s) {
    if (Cell* c = cell(x, y)) *c = Cell{static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch, style, Glyph::none};
    ++x;
  }
  return x;
}

void Canvas::fill(int x, int y, int w, Style style, char ch) {
  for (int i = 0; i < w; ++i)
    if (Cell* c = cell(x + i, y)) *c = Cell{ch, style, Glyph::none};
}

void Canvas::glyph(int x, int y, Glyph g, Style style) {
  if (Cell* c = cell(x, y)) *c = Cell{ascii_of(g), style, g};
}

void Canvas::rule(int x, int y, int w, Style style) {
  for (int i = 0; i < w; ++i) glyph(x + i, y, Glyph::hline, style);
}

void Canvas::frame(int x, int y, int w, int h, std::string_view title, Style style) {
  if (w < 2 || h < 2) return;
  rule(x + 1, y, w - 2, style);
  rule(x + 1, y + h - 1, w - 2, style);
  for (int i = 1; i < h - 1; ++i) {
    glyph(x, y + i, Glyph::vline, style);
    glyph(x + w - 1, y + i, Glyph::vline, style);
  }
  glyph(x, y, Glyph::ul, style);
  glyph(x + w - 1, y, Glyph::ur, style);
  glyph(x, y + h - 1, Glyph::ll, style);
  glyph(x + w - 1, y + h - 1, Glyph::lr, style);
  if (!title.empty() && w > 6) {
    std::string t = " " + std::string(title.substr(0, static_cast<size_t>(w - 6))) + " ";
    text(x + 2, y, t, Style::title);
  }
}

void Canvas::blank(int x, int y, int w, int h) {
  for (int j = 0; j < h; ++j) fill(x, y + j, w, Style::normal);
}

std::string Canvas::row_text(int y) const {
  std::string out;
  if (y < 0 || y >= height_) return out;
  for (int x = 0; x < width_; ++x) out += at(x, y).ch;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string Canvas::dump() const {
  std::string out;
  for (int y = 0; y < height_; ++y) out += row_text(y) + "\n";
  return out;
}

char ascii_of(Glyph g) {
  switch (g) {
    case Glyph::hline: return '-';
    case Glyph::vline: return '|';
    case Glyph::ul: case Glyph::ur: case Glyph::ll: case Glyph::lr: return '+';
    case Glyph::block: return '#';
    case Glyph::none: return ' ';
  }
  return ' ';
}

}  // namespace diskvet::tui
