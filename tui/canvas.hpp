// Canvas: a grid of styled cells the views draw into. No terminal behind it, so every layout is
// testable as text; the curses layer copies it to the screen.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace diskvet::tui {

// Meaning, not colour: the screen layer picks colour or a monochrome attribute for each.
enum class Style : uint8_t { normal, title, selected, dim, good, bad, warn, key, bar };

// Line-drawing glyphs are kept apart from text so the screen can draw them with the terminal's
// line set, or as ASCII (+ - |) where it has none.
enum class Glyph : uint8_t { none, hline, vline, ul, ur, ll, lr, block };

struct Cell {
  char ch = ' ';
  Style style = Style::normal;
  Glyph glyph = Glyph::none;
};

class Canvas {
 public:
  Canvas(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }
  const Cell& at(int x, int y) const { return cells_[static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(x)]; }

  // Writes text from (x, y), clipped at the right edge; returns the column after the last character.
  int text(int x, int y, std::string_view s, Style style = Style::normal);
  void fill(int x, int y, int w, Style style, char ch = ' ');
  void glyph(int x, int y, Glyph g, Style style = Style::normal);
  void rule(int x, int y, int w, Style style = Style::dim);
  // A frame around (x, y, w, h) with an optional title in its top edge.
  void frame(int x, int y, int w, int h, std::string_view title = {}, Style style = Style::normal);
  // Clears a rectangle (for dialogs drawn over a screen).
  void blank(int x, int y, int w, int h);

  // Row y as plain text (glyphs as ASCII), trailing spaces removed: what the tests read.
  std::string row_text(int y) const;
  std::string dump() const;

 private:
  Cell* cell(int x, int y);
  int width_, height_;
  std::vector<Cell> cells_;
};

char ascii_of(Glyph g);

}  // namespace diskvet::tui
