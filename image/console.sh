#!/bin/sh
# The program on tty1 and the serial console: the diskvet TUI when this build has it, else a banner, the device list and a shell.
case "$(tty)" in
  /dev/ttyS*|/dev/hvc*) export TERM=vt100 ;;
  *) export TERM=linux ;;
esac
export PATH=/usr/sbin:/usr/bin HOME=/root
# CLI11 lists the subcommands a build has under "Subcommands:" in --help.
has() { diskvet --help 2>/dev/null | sed -n '/^Subcommands:/,$p' | grep -q "^  $1 "; }
# diskvet.serve=1: what init started (or refused) stays on the screen until someone is there, so the
# addresses and the host key's fingerprint can be read off the console before anyone connects.
if [ -s /run/diskvet/serve.console ]; then
  cat /run/diskvet/serve.console
  echo "Press Enter for the console (the SSH server keeps running)."
  read -r _
fi
if [ ! -e /run/diskvet/shell-only ] && has tui; then
  echo "diskvet appliance ready: $(diskvet --version), starting the TUI"
  reports=/media/diskvet/reports
  # A fresh stick has no reports/ yet: make it, or the TUI's reports would land in RAM and be lost.
  if grep -q ' /media/diskvet ' /proc/mounts; then mkdir -p "$reports" 2>/dev/null || true; fi
  if [ -d "$reports" ]; then diskvet tui --report-dir "$reports"; else diskvet tui; fi
  echo "diskvet tui exited with code $?; a shell follows (exit to restart the TUI)"
else
  echo "diskvet appliance ready: $(diskvet --version) (the TUI is not in this build yet)"
  if has list; then diskvet list; fi
  echo "Boot medium (never tested): $(cat /run/diskvet/boot-medium 2>/dev/null | tr '\n' ' ')"
  echo "Tools: diskvet, fio, nvme, smartctl. Reports: /media/diskvet/reports. Shell also on tty2."
fi
exec /bin/sh -l
