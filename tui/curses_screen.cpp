// CursesScreen: the only file that knows ncurses. Maps Styles to colour pairs or, on a monochrome
// terminal, to bold/reverse; Glyphs to the terminal's line set or ASCII; curses keys to Keys.
#include "tui/screen.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

// Last: curses defines macros (box, clear, erase, timeout) that must not reach other headers.
#include <curses.h>

namespace diskvet::tui {

namespace {

// Signal state: the only globals, because a signal handler can reach nothing else.
volatile sig_atomic_t g_signal = 0;
volatile sig_atomic_t g_curses_active = 0;

extern "C" void on_stop_signal(int sig) { g_signal = sig; }

extern "C" void on_crash_signal(int sig) {
  // Give the terminal back before dying, as htop's CRT does; then die of the same signal.
  if (g_curses_active) endwin();
  signal(sig, SIG_DFL);
  raise(sig);
}

class CursesScreen final : public Screen {
 public:
  CursesScreen(SCREEN* s, const ScreenOptions& o) : screen_(s), ascii_(o.ascii) {
    g_curses_active = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    color_ = !o.monochrome && has_colors();
    if (color_) {
      start_color();
      use_default_colors();
      init_pair(1, COLOR_BLACK, COLOR_CYAN);    // title
      init_pair(2, COLOR_GREEN, -1);            // good
      init_pair(3, COLOR_RED, -1);              // bad
      init_pair(4, COLOR_YELLOW, -1);           // warn
      init_pair(5, COLOR_CYAN, -1);             // bar
      init_pair(6, COLOR_BLACK, COLOR_WHITE);   // key hints
    }
    install(SIGINT, on_stop_signal, &old_int_);
    install(SIGTERM, on_stop_signal, &old_term_);
    install(SIGSEGV, on_crash_signal, &old_segv_);
    install(SIGABRT, on_crash_signal, &old_abrt_);
    install(SIGBUS, on_crash_signal, &old_bus_);
  }
  ~CursesScreen() override {
    endwin();
    g_curses_active = 0;
    delscreen(screen_);
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGSEGV, &old_segv_, nullptr);
    sigaction(SIGABRT, &old_abrt_, nullptr);
    sigaction(SIGBUS, &old_bus_, nullptr);
  }

  int width() const override { return getmaxx(stdscr); }
  int height() const override { return getmaxy(stdscr); }
  int pending_signal() const override { return g_signal; }

  Key read_key(int timeout_ms) override {
    timeout(timeout_ms);
    int ch = getch();
    switch (ch) {
      case ERR: return Key{};
      case KEY_RESIZE: return Key{Key::resize};
      case KEY_UP: return Key{Key::up};
      case KEY_DOWN: return Key{Key::down};
      case KEY_LEFT: return Key{Key::left};
      case KEY_RIGHT: return Key{Key::right};
      case KEY_PPAGE: return Key{Key::page_up};
      case KEY_NPAGE: return Key{Key::page_down};
      case KEY_HOME: return Key{Key::home};
      case KEY_END: return Key{Key::end};
      case KEY_ENTER: case '\n': case '\r': return Key{Key::enter};
      case KEY_BACKSPACE: case 127: case 8: return Key{Key::backspace};
      case 27: return Key{Key::escape};
      case '\t': return Key{Key::tab};
      case ' ': return Key{Key::space};
      default: break;
    }
    if (ch > 0 && ch < 127) return Key::of(static_cast<char>(ch));
    return Key{};
  }

  void draw(const Canvas& c) override {
    erase();
    const int h = std::min(c.height(), height()), w = std::min(c.width(), width());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        // The bottom-right cell of a terminal cannot be written without scrolling on some terminals.
        if (y == height() - 1 && x == width() - 1) continue;
        const Cell& cell = c.at(x, y);
        mvaddch(y, x, glyph(cell) | attr(cell.style));
      }
    refresh();
  }

 private:
  static void install(int sig, void (*fn)(int), struct sigaction* old) {
    struct sigaction sa{};
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, old);
  }

  chtype glyph(const Cell& cell) const {
    if (cell.glyph == Glyph::none || ascii_) return static_cast<unsigned char>(cell.ch);
    switch (cell.glyph) {
      case Glyph::hline: return ACS_HLINE;
      case Glyph::vline: return ACS_VLINE;
      case Glyph::ul: return ACS_ULCORNER;
      case Glyph::ur: return ACS_URCORNER;
      case Glyph::ll: return ACS_LLCORNER;
      case Glyph::lr: return ACS_LRCORNER;
      case Glyph::block: return ACS_BLOCK;
      case Glyph::none: break;
    }
    return static_cast<unsigned char>(cell.ch);
  }

  chtype attr(Style s) const {
    if (color_) {
      switch (s) {
        case Style::normal: return A_NORMAL;
        case Style::title: return COLOR_PAIR(1) | A_BOLD;
        case Style::selected: return A_REVERSE;
        case Style::dim: return A_NORMAL;
        case Style::good: return COLOR_PAIR(2) | A_BOLD;
        case Style::bad: return COLOR_PAIR(3) | A_BOLD;
        case Style::warn: return COLOR_PAIR(4) | A_BOLD;
        case Style::key: return COLOR_PAIR(6);
        case Style::bar: return COLOR_PAIR(5);
      }
      return A_NORMAL;
    }
    // Monochrome (vt100, linux console without colour): the words carry the meaning, attributes help.
    switch (s) {
      case Style::title: case Style::selected: case Style::key: return A_REVERSE;
      case Style::bad: case Style::warn: case Style::good: return A_BOLD;
      default: return A_NORMAL;
    }
  }

  SCREEN* screen_;
  bool ascii_;
  bool color_ = false;
  struct sigaction old_int_{}, old_term_{}, old_segv_{}, old_abrt_{}, old_bus_{};
};

}  // namespace

Result<std::unique_ptr<Screen>> open_curses_screen(const ScreenOptions& options) {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
    return usage_error("diskvet tui", "needs a terminal on stdin and stdout", "run it on a console, over ssh -t, or use 'diskvet run'");
  g_signal = 0;
  SCREEN* s = newterm(nullptr, stdout, stdin);
  if (!s) return usage_error("diskvet tui", "cannot drive this terminal (TERM is unknown or unset)", "set TERM, e.g. TERM=vt100 or TERM=linux");
  set_term(s);
  return std::unique_ptr<Screen>(new CursesScreen(s, options));
}

}  // namespace diskvet::tui
