// Screen: the terminal behind the UI, as an interface so the app loop needs no curses. The one
// implementation is CursesScreen (curses_screen.cpp, the only file that includes <curses.h>).
#pragma once

#include <memory>

#include "common/error.hpp"
#include "tui/canvas.hpp"
#include "tui/keys.hpp"

namespace diskvet::tui {

class Screen {
 public:
  virtual ~Screen() = default;
  virtual int width() const = 0;
  virtual int height() const = 0;
  // The next key, or Key::none after timeout_ms; Key::resize when the terminal changed size.
  virtual Key read_key(int timeout_ms) = 0;
  virtual void draw(const Canvas& c) = 0;
  // SIGINT or SIGTERM received since the screen opened (0: none).
  virtual int pending_signal() const = 0;
};

struct ScreenOptions {
  bool ascii = false;       // ASCII line drawing
  bool monochrome = false;  // no colour
};

// Takes over the terminal; the destructor gives it back (also on SIGINT/SIGTERM, which only set a
// flag the loop reads, and on SIGSEGV/SIGABRT/SIGBUS, which restore the terminal and re-raise).
Result<std::unique_ptr<Screen>> open_curses_screen(const ScreenOptions& options);

}  // namespace diskvet::tui
