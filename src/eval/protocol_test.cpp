// The worker protocol on the orchestrator's side: the file compiled in is
// the one in data/protocol/, every record's example passes the check (the
// worker's tests check the same examples), records that break the file are
// refused with the record and the field named, and a field read as a type
// the file does not declare is a bug found here, not a value read wrongly.
#include "protocol.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "verdict.h"

namespace kmem::eval {
namespace {

Json example(const std::string& role, const std::string& kind, const std::string& name) {
  for (const auto& e : Protocol::compiled().examples())
    if (e.role == role && e.kind == kind && e.name == name) return e.record;
  ADD_FAILURE() << "no example of " << role << " " << kind << " " << name;
  return Json();
}

std::string refusal(const std::string& role, const Json& event) {
  auto checked = Protocol::compiled().check_event(role, event);
  return checked ? "" : checked.error().message();
}

TEST(Protocol, TheCompiledFileIsTheOneInTheSourceTree) {
  std::ifstream in(std::string(KMEM_SOURCE_DIR) + "/data/protocol/worker.json");
  std::stringstream text;
  text << in.rdbuf();
  auto on_disk = Protocol::parse(text.str());
  ASSERT_TRUE(on_disk) << on_disk.error().message();
  EXPECT_EQ(on_disk->examples().size(), Protocol::compiled().examples().size());
  EXPECT_EQ(Json::parse(text.str())["roles"]["candidate"]["events"]["result"]["example"],
            example("candidate", "events", "result"));
}

TEST(Protocol, EveryExamplePassesItsCheck) {
  const Protocol& protocol = Protocol::compiled();
  int checked = 0;
  for (const auto& e : protocol.examples()) {
    auto ok = e.kind == "commands" ? protocol.check_command(e.role, e.record) : protocol.check_event(e.role, e.record);
    EXPECT_TRUE(ok) << e.role << " " << e.name << ": " << ok.error().message();
    ++checked;
  }
  EXPECT_GT(checked, 15);
  EXPECT_TRUE(protocol.trusted("reference"));
  EXPECT_FALSE(protocol.trusted("candidate"));
}

TEST(Protocol, RecordsThatBreakTheFileAreRefusedNamingRecordAndField) {
  Json ready = example("reference", "events", "ready");
  ready["reference_ms"] = "1.5";
  EXPECT_EQ(refusal("reference", ready), "reference event 'ready': field 'reference_ms': expected number, got string");
  ready = example("reference", "events", "ready");
  ready["surprise"] = 1;
  EXPECT_EQ(refusal("reference", ready), "reference event 'ready': field 'surprise': not in the protocol");
  ready.erase("surprise");
  ready.erase("cached");
  EXPECT_EQ(refusal("reference", ready), "reference event 'ready': field 'cached': missing");
  Json verdict = example("reference", "events", "verdict");
  verdict["trials"] = true;
  EXPECT_EQ(refusal("reference", verdict), "reference event 'verdict': field 'trials': expected int, got bool");
  verdict["trials"] = 2.5;
  EXPECT_EQ(refusal("reference", verdict), "reference event 'verdict': field 'trials': expected int, got number");
  verdict["trials"] = 3;
  verdict["mismatch"]["samples"][0]["got"] = 0.0;
  EXPECT_EQ(refusal("reference", verdict),
            "reference event 'verdict': field 'mismatch.samples[0].got': expected string, got number");
  verdict["mismatch"]["samples"][0]["got"] = "0";
  verdict["mismatch"]["where"] = "corners";
  EXPECT_NE(refusal("reference", verdict).find("field 'mismatch.where': \"corners\" is not one of"), std::string::npos);
  verdict = example("reference", "events", "verdict");
  verdict["detail"] = nullptr;
  EXPECT_EQ(refusal("reference", verdict), "reference event 'verdict': field 'detail': null, expected string");
  Json error = example("reference", "events", "error");
  error["kind"] = "oom";
  EXPECT_NE(refusal("reference", error).find("field 'kind': \"oom\" is not one of"), std::string::npos);
  Json result = example("candidate", "events", "result");
  result["observations"]["timing_tally"]["calls"] = "many";
  EXPECT_EQ(refusal("candidate", result),
            "candidate event 'result': field 'observations.timing_tally.calls': expected int, got string");
  result = example("candidate", "events", "result");
  result["inputs_changed"][1] = 0;
  EXPECT_EQ(refusal("candidate", result),
            "candidate event 'result': field 'inputs_changed[1]': expected bool, got int");
  EXPECT_EQ(refusal("candidate", example("reference", "events", "ready")),
            "candidate event 'ready': not in the protocol");
  EXPECT_EQ(refusal("reference", Json{{"cmd", "drop"}}), "reference event: not a record with a 'event'");
}

TEST(Protocol, ABrokenProtocolFileIsRefused) {
  EXPECT_FALSE(Protocol::parse("{"));
  EXPECT_FALSE(Protocol::parse(R"({"format": "other/1", "types": {}, "every_role": {}, "roles": {}})"));
}

TEST(Fields, ReadDeclaredFieldsByTheirTypes) {
  Json ready = example("reference", "events", "ready");
  Fields fields("reference", "ready", ready);
  EXPECT_DOUBLE_EQ(fields.number("reference_ms"), 1.5);
  EXPECT_FALSE(fields.flag("cached", true));
  EXPECT_EQ(fields.json("seconds")["load"], 0.2);
  EXPECT_DOUBLE_EQ(fields.object("timing_tally").number("calls"), 40);
  Json verdict = example("reference", "events", "verdict");
  EXPECT_FALSE(Fields("reference", "verdict", verdict).maybe_number("roofline_ms"));  // null
  EXPECT_EQ(error_kind(Fields("reference", "error", example("reference", "events", "error")).text("kind")),
            ErrorKind::kOutOfMemory);
}

TEST(Fields, ReadingAFieldAsAnUndeclaredTypeIsABugFoundByTests) {
  Json ready = example("reference", "events", "ready");
  Fields fields("reference", "ready", ready);
  EXPECT_THROW(fields.text("reference_ms"), std::logic_error);
  EXPECT_THROW(fields.number("not_declared"), std::logic_error);
  EXPECT_THROW(Fields("candidate", "result", Json::object(), "observations").flag("custom_kernel_launches"),
               std::logic_error);
}

TEST(Fields, AMistypedUntrustedFieldReadsAsTheFallback) {
  Json result = example("candidate", "events", "result");
  result["candidate_ms"] = "fast";
  EXPECT_DOUBLE_EQ(Fields("candidate", "result", result).number("candidate_ms", -1), -1);
}

// The verdict rules read every observation of the example result through
// the declared types (a field they read undeclared would throw here).
TEST(Fields, TheVerdictRulesReadOnlyDeclaredObservations) {
  Json result = example("candidate", "events", "result");
  Facts facts;
  facts.run.end = CandidateRun::End::kResult;
  facts.run.candidate_ms = 0.75;
  facts.run.observations = result["observations"];
  facts.run.timing_lock_held_s = 0.05;
  facts.min_timed_calls = 23;
  facts.reference_ms = 1.5;
  facts.judgement = Judgement{true, "", "", {}, std::nullopt, std::nullopt};
  EvalOutcome outcome = decide({"j", "p.py", "c.py"}, facts);
  EXPECT_EQ(outcome.verdict, "pass") << outcome.detail;
}

}  // namespace
}  // namespace kmem::eval
