// The progress line: what it says before the first job starts, while jobs
// run (done/total, pass/fail, building, running, queued, elapsed, ETA) and at the end;
// and that a disabled Progress writes nothing.
#include "progress.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace kmem::cli {
namespace {

using std::chrono::seconds;

TEST(Progress, SaysWhatHappensBeforeTheFirstJobStarts) {
  EXPECT_EQ(progress_line({40, 0, 0, 0}, seconds(1)), "starting 40 jobs: workers and references loading  0:01 elapsed");
}

TEST(Progress, CountsJobsAndEstimatesTheTimeLeft) {
  EXPECT_EQ(progress_line({40, 20, 9, 3}, seconds(65)),
            "[######..............] 12/40  pass 9 fail 3  building 0  running 8  queued 20  1:05 elapsed  ETA 2:31");
  EXPECT_EQ(progress_line({40, 20, 9, 3, 5}, seconds(65)),
            "[######..............] 12/40  pass 9 fail 3  building 5  running 3  queued 20  1:05 elapsed  ETA 2:31");
  EXPECT_EQ(progress_line({2, 2, 1, 1}, seconds(3725)),
            "[####################] 2/2  pass 1 fail 1  building 0  running 0  queued 0  1:02:05 elapsed");
}

TEST(Progress, AJobIsBuildingUntilItIsBuiltOrEnds) {
  std::FILE* out = std::tmpfile();
  {
    Progress progress(out, 3, true);
    for (const char* id : {"a", "b", "c"}) progress.started(id);
    progress.built("a");
    progress.finished("b", false);  // a build error: it never built
  }
  std::rewind(out);
  char buffer[8192] = {};
  std::string text(buffer, std::fread(buffer, 1, sizeof buffer, out));
  std::fclose(out);
  EXPECT_NE(text.find("0/3  pass 0 fail 0  building 3  running 0"), std::string::npos) << text;
  EXPECT_NE(text.find("0/3  pass 0 fail 0  building 2  running 1"), std::string::npos) << text;
  EXPECT_NE(text.find("1/3  pass 0 fail 1  building 1  running 1"), std::string::npos) << text;
}

TEST(Progress, DisabledWritesNothing) {
  std::FILE* out = std::tmpfile();
  {
    Progress progress(out, 3, false);
    progress.started("a");
    progress.finished("a", true);
  }
  EXPECT_EQ(std::ftell(out), 0);
  std::fclose(out);
}

TEST(Progress, EnabledDrawsAtOnceAndEndsItsLine) {
  std::FILE* out = std::tmpfile();
  {
    Progress progress(out, 1, true);
    progress.started("a");
    progress.finished("a", false);
  }
  std::rewind(out);
  char buffer[4096] = {};
  std::string text(buffer, std::fread(buffer, 1, sizeof buffer, out));
  std::fclose(out);
  EXPECT_EQ(text.rfind("\rstarting 1 job: ", 0), 0u) << text;
  EXPECT_NE(text.find("1/1  pass 0 fail 1"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace
}  // namespace kmem::cli
