// Tests of the report: metrics on a small fixture store against values
// computed by hand, the bootstrap on cases whose interval is known exactly,
// the JSON and HTML forms, and the HTML page rendered by headless Chromium
// (skipped with a message when chromium is not installed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "kmem/episode.h"
#include "kmem/experiment.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  std::string policy, problem, category;
  bool correct;
  double speedup;
  std::string end = "submitted";
};

// reader r; none: L1_001 2.0x, L1_002 wrong, L1_003 0.5x; show_all: 4.0x, 1.5x, wrong.
const std::vector<Fixture> kFixture = {
    {"none", "L1_001", "matmul", true, 2.0},     {"none", "L1_002", "matmul", false, 0.0},
    {"none", "L1_003", "conv", true, 0.5},       {"show_all", "L1_001", "matmul", true, 4.0},
    {"show_all", "L1_002", "matmul", true, 1.5}, {"show_all", "L1_003", "conv", false, 0.0, "endpoint_error"},
};

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kmem-report-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto db = Database::open((dir / "kmem.db").string());
    ASSERT_TRUE(db) << db.error().message();
    ASSERT_TRUE(db->begin_experiment("fx", "{}"));
    for (const Fixture& f : kFixture) {
      EpisodeOutcome o;
      o.end = f.end;
      o.submitted = f.end == "submitted";
      o.correct = f.correct;
      o.speedup = f.speedup;
      o.score = f.correct ? std::min(f.speedup, 10.0) : 0.0;
      Turn t;
      t.index = 1;
      t.action = "SUBMIT";
      t.verdict = f.correct ? "pass" : "output_mismatch";
      t.candidate = "class ModelNew: pass";
      t.latency_s = 2.0;
      t.eval_s = 0.5;
      t.reply = "<script>alert('" + f.problem + "')</script> & ```python\nclass ModelNew: pass\n```";
      if (f.correct) {
        t.candidate_ms = 1.0;
        // L1_001 under show_all: 4x eager but only 1.5x the compiled reference.
        if (f.policy == "show_all" && f.problem == "L1_001") t.compile_ms = 1.5;
      }
      Turn check = t;
      check.action = "CHECK";
      check.verdict = "output_mismatch";
      check.feedback = "Output 0 (shape (4, 8)): 8 of 32 elements wrong <b>not bold</b>";
      check.candidate.clear();
      t.index = 2;
      o.turns = {check, t};
      Problem p{f.problem, 1, std::stoi(f.problem.substr(3)), "x", f.category};
      auto stored = db->record_episode("fx", EpisodeKey{"r", f.policy, f.problem, 0}, p, o);
      ASSERT_TRUE(stored) << stored.error().message();
      ASSERT_TRUE(*stored);
    }
    auto episodes = db->experiment_episodes("fx");
    ASSERT_TRUE(episodes) << episodes.error().message();
    report = build_report("fx", *episodes, ReportOptions{});
  }
  void TearDown() override { fs::remove_all(dir); }

  const CellMetrics& cell(const std::string& policy) const {
    for (const auto& c : report.cells)
      if (c.policy == policy) return c;
    throw std::runtime_error("no cell " + policy);
  }

  fs::path dir;
  Report report;
};

TEST_F(ReportTest, MetricsMatchHandComputedValues) {
  ASSERT_EQ(report.cells.size(), 2u);
  EXPECT_EQ(report.cells[0].policy, "none");  // none first
  const CellMetrics& none = cell("none");
  EXPECT_EQ(none.episodes, 3);
  EXPECT_EQ(none.problems, 3);
  EXPECT_DOUBLE_EQ(none.correct, 2.0 / 3);
  EXPECT_DOUBLE_EQ(none.fast_0, 2.0 / 3);
  EXPECT_DOUBLE_EQ(none.fast_1, 1.0 / 3);
  EXPECT_DOUBLE_EQ(none.fast_p, 0.0);  // p = 2: 2.0 is not faster than 2
  EXPECT_DOUBLE_EQ(none.mean_score, 2.5 / 3);
  ASSERT_TRUE(none.geomean_speedup);
  EXPECT_NEAR(*none.geomean_speedup, 1.0, 1e-12);  // sqrt(2 * 0.5)
  EXPECT_FALSE(none.effect);
  EXPECT_EQ(none.errors, 0);
  EXPECT_DOUBLE_EQ(none.model_s, 12.0);  // two turns of 2 s per episode
  EXPECT_DOUBLE_EQ(none.eval_s, 1.5);
  EXPECT_EQ(none.compiled, 0);
  EXPECT_DOUBLE_EQ(none.fast_1_best, none.fast_1);  // no compile baseline: eager

  const CellMetrics& all = cell("show_all");
  EXPECT_DOUBLE_EQ(all.correct, 2.0 / 3);
  EXPECT_DOUBLE_EQ(all.fast_1, 2.0 / 3);
  EXPECT_DOUBLE_EQ(all.fast_p, 1.0 / 3);
  // Against the faster baseline L1_001 is 1.5x (compiled), no longer above p = 2.
  EXPECT_EQ(all.compiled, 1);
  EXPECT_DOUBLE_EQ(all.fast_1_best, 2.0 / 3);
  EXPECT_DOUBLE_EQ(all.fast_p_best, 0.0);
  EXPECT_DOUBLE_EQ(all.mean_score, 5.5 / 3);
  EXPECT_NEAR(*all.geomean_speedup, std::sqrt(6.0), 1e-12);
  EXPECT_EQ(all.errors, 1);
  ASSERT_TRUE(all.effect);
  EXPECT_EQ(all.paired_problems, 3);
  EXPECT_DOUBLE_EQ(all.effect->mean, 1.0);  // (2 + 1.5 - 0.5) / 3
  EXPECT_GE(all.effect->low, -0.5);
  EXPECT_LE(all.effect->low, 1.0);
  EXPECT_GE(all.effect->high, 1.0);
  EXPECT_LE(all.effect->high, 2.0);
}

TEST_F(ReportTest, CategoryBreakdown) {
  std::map<std::string, CategoryMetrics> shown;
  for (const auto& c : report.categories)
    if (c.policy == "show_all") shown[c.category] = c;
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown["matmul"].episodes, 2);
  EXPECT_DOUBLE_EQ(shown["matmul"].correct, 1.0);
  EXPECT_DOUBLE_EQ(shown["matmul"].mean_score, 2.75);
  EXPECT_DOUBLE_EQ(*shown["matmul"].effect, 1.75);  // (4 - 2 + 1.5 - 0) / 2
  EXPECT_DOUBLE_EQ(*shown["conv"].effect, -0.5);
}

TEST(Bootstrap, KnownIntervals) {
  // Two values: resample means are 0, 0.5, 1 with chances 1/4, 1/2, 1/4.
  Interval two = bootstrap_mean({0.0, 1.0}, 10000, 1);
  EXPECT_DOUBLE_EQ(two.mean, 0.5);
  EXPECT_DOUBLE_EQ(two.low, 0.0);
  EXPECT_DOUBLE_EQ(two.high, 1.0);
  Interval same = bootstrap_mean({0.7, 0.7, 0.7}, 1000, 3);
  EXPECT_DOUBLE_EQ(same.low, 0.7);
  EXPECT_DOUBLE_EQ(same.high, 0.7);
  // Seeded: the same draws every time; another seed, other draws.
  std::vector<double> v = {0.1, 0.9, 0.3, 2.0, -1.0, 0.4};
  Interval a = bootstrap_mean(v, 2000, 7), b = bootstrap_mean(v, 2000, 7);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  EXPECT_LT(a.low, a.mean);
  EXPECT_GT(a.high, a.mean);
}

TEST_F(ReportTest, JsonAndText) {
  auto j = nlohmann::json::parse(report_json(report));
  EXPECT_EQ(j["experiment"], "fx");
  EXPECT_EQ(j["bootstrap"]["resamples"], 10000);
  EXPECT_EQ(j["cells"][1]["policy"], "show_all");
  EXPECT_DOUBLE_EQ(j["cells"][1]["effect_vs_none"]["mean"].get<double>(), 1.0);
  EXPECT_TRUE(j["cells"][0]["effect_vs_none"].is_null());
  EXPECT_DOUBLE_EQ(j["problem_scores"]["r"]["show_all"]["L1_001"].get<double>(), 4.0);
  std::string text = report_text(report);
  EXPECT_NE(text.find("show_all"), std::string::npos);
  EXPECT_NE(text.find("+1.000"), std::string::npos);
}

TEST_F(ReportTest, UnknownExperimentIsAnErrorNamingIt) {
  auto db = Database::open_existing((dir / "kmem.db").string());
  ASSERT_TRUE(db);
  auto missing = db->experiment_episodes("nope");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("no experiment 'nope'"), std::string::npos);
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_F(ReportTest, HtmlIsSelfContainedAndRendersInChromium) {
  const std::string chart_path = KMEM_CHART_JS;
  if (chart_path.empty())
    GTEST_SKIP() << "Chart.js was not found at build time (scripts/setup.sh installs libjs-chart.js)";
  auto db = Database::open_existing((dir / "kmem.db").string());
  ASSERT_TRUE(db);
  auto views = db->episode_views("fx");
  ASSERT_TRUE(views) << views.error().message();
  ASSERT_EQ(views->size(), kFixture.size());
  ASSERT_EQ((*views)[0].turns.size(), 2u);
  EXPECT_EQ((*views)[0].turns[0].verdict, "output_mismatch");
  std::string html = report_html(report, slurp(chart_path), *views);
  EXPECT_EQ(html.find("<script src"), std::string::npos);  // nothing fetched
  EXPECT_EQ(html.find("http://"), std::string::npos);
  // The viewer shows replies and feedback as text, never as markup.
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;L1_001&#39;)&lt;/script&gt; &amp; ```python"), std::string::npos)
      << "the reply is shown escaped";
  EXPECT_NE(html.find("elements wrong &lt;b&gt;not bold&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(html.find("<h2>By problem (mean score)</h2>"), std::string::npos);
  fs::path page = dir / "report.html";
  std::ofstream(page) << html;
  // KMEM_REPORT_TEST_HTML=FILE keeps a copy of the page to look at.
  if (const char* keep = std::getenv("KMEM_REPORT_TEST_HTML"); keep != nullptr && *keep != '\0')
    std::ofstream(keep) << html;

  std::string browser;
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    if (std::system((std::string("command -v ") + name + " >/dev/null 2>&1").c_str()) == 0) {
      browser = name;
      break;
    }
  if (browser.empty())
    GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it); the HTML check is skipped";
  std::string command = browser +
                        " --headless --no-sandbox --disable-gpu --allow-file-access-from-files "
                        "--window-size=1280,900 --virtual-time-budget=5000 --dump-dom 'file://" +
                        page.string() + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string dom;
  char buffer[65536];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) dom.append(buffer, n);
  ::pclose(pipe);
  ASSERT_NE(dom.find("data-charts=\"ready\""), std::string::npos) << "the charts' script did not finish";
  EXPECT_EQ(dom.find("data-errors"), std::string::npos) << "script errors in the page";
  std::regex painted(R"re(id="(scores|effect|heatmap)"[^>]*data-drawn-pixels="(\d+)")re");
  int charts = 0;
  for (std::sregex_iterator it(dom.begin(), dom.end(), painted), end; it != end; ++it) {
    ++charts;
    EXPECT_GT(std::stol((*it)[2].str()), 1000) << (*it)[1].str() << " is blank";
  }
  EXPECT_EQ(charts, 3);
  // Every chart and table fits 800 px, and the heatmap has its legend.
  std::smatch widest;
  ASSERT_TRUE(std::regex_search(dom, widest, std::regex(R"re(data-widest="(\d+)")re")));
  EXPECT_LE(std::stoi(widest[1].str()), 800);
  EXPECT_NE(dom.find("<span class=\"swatch\""), std::string::npos);
  EXPECT_NE(dom.find(">1 (eager)</span>"), std::string::npos);
  EXPECT_NE(dom.find(">0 (wrong)</span>"), std::string::npos);
}

}  // namespace
}  // namespace kmem
