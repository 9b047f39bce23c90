// Strict reading of the hosts inventory.
#include "runner/hosts/inventory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "suites/strict_reader.hpp"

namespace diskvet::runner {

namespace json = boost::json;

bool Host::writes_allowed() const {
  return has_diskvet() && std::any_of(devices.begin(), devices.end(), [](const HostDevice& d) { return d.destroy_data; });
}

namespace {

// A host name becomes part of socket and log file names on the controller: letters, digits, . _ -
bool fit_for_file_name(const std::string& s) {
  return !s.empty() && s.size() <= 64 && s.front() != '.' && s.front() != '-' &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '_' || c == '-'; });
}

// Words handed to ssh or to the remote command line: never an option, never a space or quote.
bool plain_word(const std::string& s) {
  return !s.empty() && s.front() != '-' &&
         std::none_of(s.begin(), s.end(), [](unsigned char c) { return c <= ' ' || c == 0x7f || c == '\'' || c == '"' || c == '\\' || c == '`' || c == '$' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')' || c == '*' || c == '?'; });
}

}  // namespace

Result<Inventory> parse_inventory(std::string_view text, const std::string& file) {
  auto doc = suites::parse_json_text(text, file);
  if (!doc) return doc.error();
  std::optional<Error> err;
  Inventory inv;
  inv.file = file;
  suites::StrictReader top(*doc, file, "", &err);
  top.string("ssh_config", inv.ssh_config);
  const json::array* hosts = top.array("hosts", true);
  if (hosts && hosts->empty()) top.fail("hosts", "is empty", "name at least one host");
  std::set<std::string> names;
  std::map<std::string, std::string> reached;  // "ssh\nport\nid" -> the host that lists it
  for (size_t i = 0; hosts && !err && i < hosts->size(); ++i) {
    const std::string where = fmt::format("hosts[{}]", i);
    suites::StrictReader r((*hosts)[i], file, where, &err);
    Host h;
    r.string("name", h.name, true);
    r.string("ssh", h.ssh, true);
    r.uint32("port", h.ssh_port, 1, 65535);
    if (const json::value* d = r.value("diskvet")) {
      if (d->is_bool() && !d->get_bool()) h.diskvet.clear();
      else if (d->is_string() && !d->get_string().empty()) h.diskvet = std::string(d->get_string());
      else r.fail("diskvet", "must be the path of diskvet on that host, or false when it has none");
    }
    r.string("fio", h.fio);
    if (!err && !fit_for_file_name(h.name))
      r.fail("name", fmt::format("\"{}\" is not a plain name", h.name), "use letters, digits, '.', '_' and '-' (at most 64), not starting with '.' or '-'");
    if (!err && !names.insert(h.name).second) r.fail("name", fmt::format("\"{}\" names two hosts", h.name), "give every host its own name");
    if (!err && !plain_word(h.ssh)) r.fail("ssh", fmt::format("\"{}\" is not a plain ssh destination", h.ssh), "write user@host or a Host of the ssh config");
    if (!err && h.has_diskvet() && !plain_word(h.diskvet)) r.fail("diskvet", "is not a plain path", "give the path without spaces or shell characters");
    if (!err && !plain_word(h.fio)) r.fail("fio", "is not a plain path", "give the path without spaces or shell characters");
    if (const json::array* devs = r.array("devices")) {
      std::set<std::string> ids;
      for (size_t j = 0; !err && j < devs->size(); ++j) {
        suites::StrictReader dr((*devs)[j], file, fmt::format("{}.devices[{}]", where, j), &err);
        HostDevice d;
        dr.string("id", d.id, true);
        dr.boolean("destroy_data", d.destroy_data);
        dr.finish();
        if (!err && !plain_word(d.id)) dr.fail("id", fmt::format("\"{}\" is not a plain device identity", d.id), "name the device by serial, SERIAL/NSID, WWN or /dev/disk/by-id path");
        if (!err && !ids.insert(d.id).second) dr.fail("id", fmt::format("\"{}\" is listed twice", d.id), "list each device once");
        // One host under two names: the same destination and device would run twice and count twice.
        if (!err) {
          auto [at, fresh] = reached.emplace(fmt::format("{}\n{}\n{}", h.ssh, h.ssh_port, d.id), h.name);
          if (!fresh)
            dr.fail("id", fmt::format("\"{}\" on {} is already listed for host \"{}\" (the same ssh destination)", d.id, h.ssh, at->second),
                    "list each host once, under one name");
        }
        if (!err && !h.has_diskvet() && d.id.rfind("/dev/", 0) != 0)
          dr.fail("id", fmt::format("\"{}\" is not a /dev path, and the host has no diskvet to find it by", d.id), "name it by its /dev/disk/by-id path");
        if (!err && d.destroy_data && !h.has_diskvet())
          dr.fail("destroy_data", "asks to write on a host without diskvet", "install diskvet on that host (its gate decides what may be written), or remove destroy_data");
        h.devices.push_back(std::move(d));
      }
    }
    r.finish();
    inv.hosts.push_back(std::move(h));
  }
  top.finish();
  if (err) return *err;
  return inv;
}

Result<Inventory> load_inventory(const std::string& path) {
  auto text = suites::read_text_file(path);
  if (!text) return text.error();
  return parse_inventory(*text, path);
}

}  // namespace diskvet::runner
