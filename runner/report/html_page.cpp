// The frame of diskvet's HTML pages (see html_page.hpp).
#include "runner/report/html_page.hpp"

#include <fmt/format.h>

#include "runner/report/svg_plot.hpp"

namespace diskvet::runner {

namespace {

constexpr const char* kStyle = R"css(
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;padding:1em;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin:1.2em 0 .4em;border-bottom:2px solid #ddd}h3{font-size:1.05em;margin:1.2em 0 .3em}
.meta{color:#555;font-size:.9em}
.badge{display:inline-block;padding:.05em .5em;border-radius:4px;font-weight:bold;font-size:.9em;border:1px solid #0002}
.PASS{background:#c8efc8}.FAIL{background:#f8c4c4}.ERROR{background:#f5b0d8}.INCONCLUSIVE{background:#fbeaa8}
.NOT-JUDGED,.NOT-EVALUATED{background:#e6e6e6}.better{background:#dff3df}.worse{background:#fbdada}
.warn{background:#fcc;padding:.5em;border-radius:4px}
.cards{display:flex;flex-wrap:wrap;gap:.8em}
.card{flex:1 1 320px;border:1px solid #ccc;border-left:8px solid #999;border-radius:6px;padding:.6em .9em;break-inside:avoid}
.card.PASS{border-left-color:#2a2;background:#fff}.card.FAIL,.card.ERROR{border-left-color:#c22;background:#fff}
.card.INCONCLUSIVE{border-left-color:#db2;background:#fff}.card.NOT-JUDGED{border-left-color:#888;background:#fff}
.card h2{border:0;margin:.1em 0 .3em;font-size:1.1em}
.card dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em .8em;margin:.3em 0;font-size:.92em}.card dt{color:#666}.card dd{margin:0}
.card ul{margin:.3em 0;padding-left:1.2em}.card li.bad{color:#a00;font-weight:600}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.4em 0;font-size:.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;white-space:nowrap}td.nowrap{white-space:nowrap}tr.findings td{border-top:0}tr.findings ul{margin:0}
.plots{display:flex;flex-wrap:wrap;gap:.5em}.plots svg{max-width:100%;height:auto;border:1px solid #eee}
details{margin:.3em 0}summary{cursor:pointer;color:#245}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.5em;font-size:.85em}
.print-only{display:none}
@media (max-width:600px){body{padding:.5em;font-size:15px}td,th{padding:2px 4px}}
@page{size:A4;margin:12mm}
@media print{body{max-width:none;padding:0;font-size:10pt}.print-only{display:block}.device>h2{display:none}.device{break-before:page}.plots svg{border:0;max-width:48%}
 details>summary{display:none}a{color:inherit;text-decoration:none}.card{break-inside:avoid}table,svg{break-inside:avoid}}
)css";

}  // namespace

std::string html_page(std::string_view title, std::string_view body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>{}</title><style>{}</style></head><body>\n{}\n</body></html>\n",
      html_escape(title), kStyle, body);
}

std::string verdict_badge(std::string_view status) {
  const std::string s = status.empty() ? std::string("NOT-JUDGED") : html_escape(status);
  return fmt::format("<span class=\"badge {0}\">{0}</span>", s);
}

int verdict_rank(std::string_view s) {
  if (s == "FAIL") return 0;
  if (s == "ERROR") return 1;
  if (s == "INCONCLUSIVE") return 2;
  if (s == "NOT-EVALUATED") return 3;
  if (s == "NOT-JUDGED") return 4;
  if (s == "PASS") return 6;
  return 5;
}

}  // namespace diskvet::runner
