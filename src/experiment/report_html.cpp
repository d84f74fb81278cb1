// The report as one self-contained HTML page, at most 800 px wide: the
// tables (per cell, per category, per problem), three charts drawn by the
// inlined Chart.js (mean score by policy and reader with its 95% interval;
// the memory effect against none with its interval; the problem x (reader,
// policy) heatmap of mean scores on a diverging scale centred at 1, with its
// legend), and the episode viewer (each episode's turns: reply, verdict and
// feedback, folded). Once the charts are drawn the page marks each canvas
// with the number of pixels it painted (data-drawn-pixels) and the body with
// data-charts="ready", and collects script errors in data-errors, so a
// headless browser can check it.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kmem/experiment.h"

namespace kmem {

namespace {

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// Text safe inside a <script> element: no "</" can close it.
std::string script_safe(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += "\\";
  }
  return out;
}

std::string number(const std::optional<double>& v, const char* format = "{:.3f}") {
  return v ? fmt::format(fmt::runtime(format), *v) : "-";
}

std::string tables(const Report& r) {
  const std::string p = escape_html(fmt::format("{}", r.options.p));
  std::string out =
      "<div class=\"wide\"><table><tr><th>reader</th><th>policy</th><th>episodes</th><th>problems</th><th>correct</th>"
      "<th>fast_0</th><th>fast_1</th><th>fast_" +
      p + "</th><th>fast_1 best</th><th>fast_" + p +
      " best</th><th>mean score [95%]</th><th>geomean speedup</th><th>vs none [95%]</th><th>errors</th></tr>\n";
  for (const CellMetrics& c : r.cells)
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}</td>"
        "<td>{:.3f}</td><td>{:.3f}</td><td>{:.3f} [{:.3f}, {:.3f}]</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape_html(c.reader), escape_html(c.policy), c.episodes, c.problems, c.correct, c.fast_0, c.fast_1, c.fast_p,
        c.fast_1_best, c.fast_p_best, c.score.mean, c.score.low, c.score.high, number(c.geomean_speedup),
        c.effect ? fmt::format("{:+.3f} [{:+.3f}, {:+.3f}]", c.effect->mean, c.effect->low, c.effect->high) : "-",
        c.errors);
  out +=
      "</table></div>\n<h2>By category</h2>\n<div class=\"wide\"><table><tr><th>reader</th><th>policy</th>"
      "<th>category</th><th>episodes</th><th>correct</th><th>mean score</th><th>vs none</th></tr>\n";
  for (const CategoryMetrics& c : r.categories)
    out +=
        fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3f}</td><td>{:.3f}</td><td>{}</td></tr>\n",
                    escape_html(c.reader), escape_html(c.policy), escape_html(c.category), c.episodes, c.correct,
                    c.mean_score, number(c.effect, "{:+.3f}"));
  return out + "</table></div>\n";
}

// Mean score per problem, a column per (reader, policy).
std::string problem_table(const Report& r) {
  std::vector<std::pair<std::string, std::string>> columns;
  for (const CellMetrics& c : r.cells) columns.emplace_back(c.reader, c.policy);
  std::string out = "<div class=\"wide\"><table><tr><th>problem</th>";
  for (const auto& [reader, policy] : columns) out += "<th>" + escape_html(reader + " / " + policy) + "</th>";
  out += "</tr>\n";
  for (const std::string& problem : r.problems) {
    out += "<tr><td>" + escape_html(problem) + "</td>";
    for (const auto& [reader, policy] : columns) {
      std::optional<double> score;
      if (auto by_policy = r.problem_scores.find(reader); by_policy != r.problem_scores.end())
        if (auto by_problem = by_policy->second.find(policy); by_problem != by_policy->second.end())
          if (auto found = by_problem->second.find(problem); found != by_problem->second.end()) score = found->second;
      out += "<td>" + number(score) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table></div>\n";
}

// Replies longer than this are cut in the viewer (the store keeps them whole).
constexpr size_t kViewerMaxText = 20000;

std::string shown_text(const std::string& text) {
  if (text.size() <= kViewerMaxText) return escape_html(text);
  size_t cut = kViewerMaxText;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return escape_html(text.substr(0, cut)) + fmt::format("\n[... {} more bytes]", text.size() - cut);
}

// Each episode folded, each of its turns folded inside: reply, verdict, feedback.
std::string episode_viewer(const std::vector<EpisodeView>& episodes) {
  std::string out = "<div id=\"episodes\">\n";
  for (const EpisodeView& e : episodes) {
    out += fmt::format(
        "<details class=\"episode\"><summary>{} &middot; {} / {}{} &middot; {} &middot; score {:.3f}"
        "</summary>\n",
        escape_html(e.key.problem), escape_html(e.key.reader), escape_html(e.key.policy),
        e.key.sample > 0 ? fmt::format(" (sample {})", e.key.sample) : "", escape_html(e.end), e.score);
    for (const TurnView& t : e.turns) {
      out += fmt::format("<details class=\"turn\"><summary>turn {}: {} &rarr; <b>{}</b></summary>\n", t.index,
                         escape_html(t.action), escape_html(t.verdict));
      out += "<div class=\"label\">reply</div><pre>" + shown_text(t.reply) + "</pre>\n";
      if (!t.feedback.empty()) out += "<div class=\"label\">feedback</div><pre>" + shown_text(t.feedback) + "</pre>\n";
      out += "</details>\n";
    }
    out += "</details>\n";
  }
  return out + "</div>\n";
}

// The page's own script: draws both charts from REPORT, then marks the DOM.
constexpr const char* kDrawScript = R"js(
(function () {
  const errors = [];
  window.addEventListener('error', e => {
    errors.push(String(e.message));
    document.body.dataset.errors = errors.join(' | ');
  });
  const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7'];
  const readers = [...new Set(REPORT.cells.map(c => c.reader))];
  const policies = [...new Set(REPORT.cells.map(c => c.policy))];
  const cellOf = (r, p) => REPORT.cells.find(c => c.reader === r && c.policy === p);

  // Whiskers for the 95% intervals, drawn over each bar.
  const whiskers = {
    id: 'whiskers',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx;
      chart.data.datasets.forEach((ds, i) => {
        const meta = chart.getDatasetMeta(i);
        meta.data.forEach((bar, j) => {
          const iv = ds.intervals[j];
          if (!iv) return;
          const y = chart.scales.y;
          ctx.save();
          const area = chart.chartArea;
          ctx.beginPath();
          ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
          ctx.clip();
          ctx.strokeStyle = '#222';
          ctx.lineWidth = 1.5;
          ctx.beginPath();
          ctx.moveTo(bar.x, y.getPixelForValue(iv.low));
          ctx.lineTo(bar.x, y.getPixelForValue(iv.high));
          ctx.moveTo(bar.x - 5, y.getPixelForValue(iv.low));
          ctx.lineTo(bar.x + 5, y.getPixelForValue(iv.low));
          ctx.moveTo(bar.x - 5, y.getPixelForValue(iv.high));
          ctx.lineTo(bar.x + 5, y.getPixelForValue(iv.high));
          ctx.stroke();
          ctx.restore();
        });
      });
    }
  };
  const highest = Math.max(0, ...REPORT.cells.map(c => c.score.high));
  const bars = (id, title, axis, pick, policyList, extra) => new Chart(document.getElementById(id), {
    type: 'bar',
    data: {
      labels: policyList,
      datasets: readers.map((r, i) => ({
        label: r,
        backgroundColor: palette[i % palette.length],
        data: policyList.map(p => (cellOf(r, p) && pick(cellOf(r, p)) ? pick(cellOf(r, p)).mean : null)),
        intervals: policyList.map(p => (cellOf(r, p) ? pick(cellOf(r, p)) : null))
      }))
    },
    options: {
      animation: false,
      responsive: false,
      plugins: { title: { display: true, text: title } },
      scales: { y: Object.assign({ title: { display: true, text: axis } }, extra) }
    },
    plugins: [whiskers]
  });
  bars('scores', 'Mean score by policy and reader (95% bootstrap interval over problems)',
       'mean score (capped speedup, 0 when wrong)', c => c.score, policies,
       { beginAtZero: true, suggestedMax: highest * 1.05 });
  const withEffect = policies.filter(p => REPORT.cells.some(c => c.policy === p && c.effect_vs_none));
  const effects = REPORT.cells.filter(c => c.effect_vs_none).map(c => c.effect_vs_none);
  bars('effect', 'Memory effect: mean paired score difference to none per problem (95% bootstrap interval)',
       'score minus score under none', c => c.effect_vs_none, withEffect,
       { suggestedMin: Math.min(0, ...effects.map(e => e.low)), suggestedMax: Math.max(0, ...effects.map(e => e.high)) });

  const rows = [];
  readers.forEach(r => policies.forEach(p => { if (cellOf(r, p)) rows.push(r + ' / ' + p); }));
  let cap = 1;
  Object.values(REPORT.problem_scores).forEach(byPolicy => Object.values(byPolicy).forEach(
      byProblem => Object.values(byProblem).forEach(v => { cap = Math.max(cap, v); })));
  const points = [];
  readers.forEach(r => policies.forEach(p => {
    const scores = (REPORT.problem_scores[r] || {})[p] || {};
    Object.entries(scores).forEach(([problem, s]) => points.push({ x: problem, y: r + ' / ' + p, v: s }));
  }));
  // Diverging at 1 (as fast as eager): red below (0: wrong or slowest), white
  // at 1, blue above on a log scale up to the highest score.
  const mix = (from, to, t) => 'rgb(' + from.map((c, i) => Math.round(c + (to[i] - c) * t)).join(',') + ')';
  const white = [247, 247, 247], red = [178, 24, 43], blue = [33, 102, 172];
  const colour = v => v < 1 ? mix(white, red, 1 - Math.max(0, v))
                            : mix(white, blue, cap > 1 ? Math.min(1, Math.log(v) / Math.log(cap)) : 0);
  const legend = document.getElementById('heat-legend');
  [0, 0.25, 0.5, 0.75, 1, ...[1.5, 2, 4, 10].filter(v => v < cap), cap].forEach(v => {
    const item = document.createElement('span');
    item.className = 'swatch';
    item.style.background = colour(v);
    item.style.color = (v < 0.4 || (cap > 1 && Math.log(v) / Math.log(cap) > 0.6)) ? '#fff' : '#222';
    item.textContent = v === 0 ? '0 (wrong)' : v === 1 ? '1 (eager)' : String(+v.toFixed(2));
    legend.appendChild(item);
  });
  const heat = document.getElementById('heatmap');
  heat.width = 780;
  const cell = Math.max(3, Math.min(22, (heat.width - 170) / Math.max(1, REPORT.problems.length)));
  heat.height = Math.max(200, 110 + Math.max(cell, 20) * rows.length);
  new Chart(heat, {
    type: 'scatter',
    data: {
      datasets: [{
        label: 'mean score',
        data: points,
        pointStyle: 'rect',
        pointRadius: Math.max(1.5, cell / 2 - 1),
        pointHoverRadius: Math.max(2, cell / 2),
        backgroundColor: points.map(pt => colour(pt.v)),
        borderColor: '#888',
        borderWidth: 0.5
      }]
    },
    options: {
      animation: false,
      responsive: false,
      plugins: {
        legend: { display: false },
        title: { display: true, text: 'Mean score per problem: red below 1 (slower than eager; 0 wrong), white 1, ' +
                                      'blue above (darkest ' + cap.toFixed(2) + ')' },
        tooltip: { callbacks: { label: c => c.raw.y + ' ' + c.raw.x + ': ' + c.raw.v.toFixed(3) } }
      },
      scales: {
        x: { type: 'category', labels: REPORT.problems, offset: true,
             ticks: { autoSkip: REPORT.problems.length > 40, maxRotation: 90, font: { size: 10 } } },
        y: { type: 'category', labels: rows, offset: true }
      }
    }
  });

  // The self-check a headless browser reads: pixels each chart painted.
  document.querySelectorAll('canvas').forEach(canvas => {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    canvas.dataset.drawnPixels = String(painted);
  });
  // The widest block on the page, which must fit 800 px.
  let widest = 0;
  document.querySelectorAll('canvas, .wide, #episodes, #heat-legend').forEach(el => {
    widest = Math.max(widest, el.getBoundingClientRect().width);
  });
  document.body.dataset.widest = String(Math.round(widest));
  document.body.dataset.charts = 'ready';
})();
)js";

}  // namespace

std::string report_html(const Report& r, const std::string& chart_js, const std::vector<EpisodeView>& episodes) {
  nlohmann::json data = nlohmann::json::parse(report_json(r));
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>kmem experiment " +
                    escape_html(r.experiment) +
                    "</title>\n<style>\n"
                    "body{font-family:sans-serif;margin:1em;color:#222;max-width:800px}"
                    ".wide{overflow-x:auto;max-width:800px}"
                    "table{border-collapse:collapse;margin:1em 0;font-size:12px}"
                    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
                    "td:first-child,td:nth-child(2),th{text-align:left}"
                    "canvas{display:block;margin:1em 0;max-width:100%}"
                    "#heat-legend{display:flex;flex-wrap:wrap;gap:2px;font-size:11px}"
                    ".swatch{padding:2px 6px;border:1px solid #bbb}"
                    "details{margin:2px 0}details.turn{margin-left:1.5em}"
                    "summary{cursor:pointer;font-size:13px}"
                    "pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:6px;font-size:12px;"
                    "max-height:30em;overflow:auto}"
                    ".label{font-size:11px;color:#666;margin-top:4px}\n</style>\n</head>\n<body>\n";
  out += "<h1>Experiment " + escape_html(r.experiment) + "</h1>\n";
  out += fmt::format(
      "<p>Score: the SUBMIT's speedup capped at 10, 0 when it fails or none passed. fast_p: share of all episodes "
      "that are correct and faster than p. Intervals: 95% percentile bootstrap over problems, {} resamples, seed "
      "{}. &ldquo;vs none&rdquo;: per problem, mean score under the policy minus under <code>none</code> for the same "
      "reader. &ldquo;best&rdquo;: against the faster of eager and <code>torch.compile</code> (eager where the "
      "SUBMIT had no compile baseline).</p>\n",
      r.options.resamples, r.options.seed);
  out +=
      "<canvas id=\"scores\" width=\"780\" height=\"400\"></canvas>\n"
      "<canvas id=\"effect\" width=\"780\" height=\"340\"></canvas>\n<canvas id=\"heatmap\"></canvas>\n"
      "<div id=\"heat-legend\" title=\"mean score\"></div>\n";
  out += tables(r);
  out += "<h2>By problem (mean score)</h2>\n" + problem_table(r);
  if (!episodes.empty()) out += "<h2>Episodes</h2>\n" + episode_viewer(episodes);
  out += "<script>\n" + chart_js + "\n</script>\n";  // the caller checks it holds no "</script"
  out += "<script>\nconst REPORT = " + script_safe(data.dump()) + ";\n" + kDrawScript + "</script>\n";
  out += "</body></html>\n";
  return out;
}

}  // namespace kmem
