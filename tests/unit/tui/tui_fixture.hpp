// Devices and models for the TUI unit tests: a protected root disk, a free NVMe drive with a serial,
// a free serial-less loop device.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "tui/canvas.hpp"
#include "tui/keys.hpp"
#include "tui/model.hpp"
#include "tui/view.hpp"

namespace tui_fixture {

using namespace diskvet;

inline devices::Device root_disk() {
  devices::Device d;
  d.path = "/dev/vda";
  d.name = "vda";
  d.kind = devices::DeviceKind::virtio;
  d.model = "QEMU HARDDISK";
  d.serial = "ROOT0001";
  d.size_bytes = 20ull << 30;
  d.is_protected = true;
  d.protection_reasons = {"backs the running root filesystem (/)", "has a gpt partition table (3 partitions)"};
  return d;
}

inline devices::Device nvme_disk() {
  devices::Device d;
  d.path = "/dev/nvme0n1";
  d.name = "nvme0n1";
  d.kind = devices::DeviceKind::nvme;
  d.model = "Samsung SSD 980 PRO 1TB";
  d.serial = "S4EWNX0R123456";
  d.size_bytes = 1000204886016ull;
  d.health.known = true;
  d.health.source = "nvme";
  return d;
}

inline devices::Device loop_disk() {
  devices::Device d;
  d.path = "/dev/loop7";
  d.name = "loop7";
  d.kind = devices::DeviceKind::loop;
  d.backing_file = "/dev/shm/scratch.img";
  d.size_bytes = 256ull << 20;
  return d;
}


// Namespaces 1 and 2 of one controller (one serial): discovery names each SERIAL/NSID.
inline devices::Device nvme_namespace(uint32_t nsid) {
  devices::Device d = nvme_disk();
  d.path = "/dev/nvme0n" + std::to_string(nsid);
  d.name = "nvme0n" + std::to_string(nsid);
  d.wwn = "eui.525400000000000" + std::to_string(nsid);
  d.nvme_controller = "nvme0";
  d.nvme_nsid = nsid;
  d.consent_id = d.serial + "/" + std::to_string(nsid);
  return d;
}

inline tui::Model model_with_devices() {
  tui::Model m;
  tui::set_devices(m, {root_disk(), nvme_disk(), loop_disk()});
  m.suites = {tui::SuiteChoice{"quick", "Seconds per test", false, true, 30},
              tui::SuiteChoice{"burnin", "not filled in yet", true, true, 0}};
  return m;
}

inline std::string render_text(const tui::Model& m, int w = 80, int h = 24) {
  tui::Canvas c(w, h);
  tui::render(m, c);
  return c.dump();
}

inline std::vector<std::string> lines(const std::string& dump) {
  std::vector<std::string> out;
  std::istringstream in(dump);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The first line of a rendered screen holding `needle` ("" when none does).
inline std::string line_with(const std::string& dump, const std::string& needle) {
  for (const auto& l : lines(dump))
    if (l.find(needle) != std::string::npos) return l;
  return {};
}

inline void type(tui::Model& m, const std::string& s) {
  for (char ch : s) tui::handle_key(m, tui::Key::of(ch));
}

}  // namespace tui_fixture
