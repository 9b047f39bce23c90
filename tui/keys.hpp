// Keys and what they do: a key changes the model and may ask the app for an effect (start or abort
// a run, refresh devices, quit). Pure: the app performs the effect, tests check the model.
#pragma once

#include "tui/model.hpp"

namespace diskvet::tui {

struct Key {
  enum Code { none, ch, up, down, left, right, page_up, page_down, home, end, enter, space, backspace, escape, tab, resize };
  Code code = none;
  char c = 0;  // for ch
  static Key of(char c) { return Key{ch, c}; }
  bool is(char x) const { return code == ch && c == x; }
};

enum class Action { none, refresh_devices, start_run, abort_run, quit };

Action handle_key(Model& m, const Key& k);

// Moves to the suite screen when at least one device is selected (else says why).
void go_to_suites(Model& m);
// Builds the confirmation list from the selected devices and opens it.
void go_to_confirm(Model& m);

}  // namespace diskvet::tui
