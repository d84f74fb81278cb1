#!/usr/bin/env python3
"""kmem as an agent's tools: a small agent loop against an OpenAI-compatible
chat endpoint, with three tools backed by `kmem serve`:

  get_memory(problem)  the memory text for this reader and policy (the prompt)
  check(reply)         the static checker's verdicts, before anything runs
  evaluate(reply)      the protected evaluator's outcome

  agent_tool.py --kmem URL --token SECRET --endpoint URL --model M \
                --problem L1_019 --reader my-model --policy show_all [--turns 5]

Each reply goes through check; a reply that passes it is evaluated; the agent
sees the verdict as feedback until a candidate passes or its turns are spent.
The last line is `result: <verdict> [<speedup>x]` (exit 0 on pass, 1 otherwise).
"""
from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from typing import Dict, List

from kmem_client import Client, EvalOutcome


class KmemTools:
    """The three tools, bound to one problem, reader and policy."""

    def __init__(self, kmem: Client, problem: str, reader: str, policy: str) -> None:
        self.kmem, self.problem, self.reader, self.policy = kmem, problem, reader, policy

    def get_memory(self) -> str:
        return self.kmem.render(self.problem, self.reader, self.policy).text

    def check(self, reply: str) -> List[str]:
        return [f"line {v.line}: {v.code}: {v.message}" for v in self.kmem.check(reply).verdicts]

    def evaluate(self, reply: str) -> EvalOutcome:
        return self.kmem.evaluate(self.problem, reply, candidate_kind="reply", timeout=1800)


def chat(endpoint: str, model: str, messages: List[Dict[str, str]]) -> str:
    body = json.dumps({"model": model, "messages": messages, "temperature": 0}).encode()
    request = urllib.request.Request(endpoint.rstrip("/") + "/chat/completions", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read())["choices"][0]["message"]["content"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("kmem", "token", "endpoint", "model", "problem", "reader", "policy"):
        parser.add_argument(f"--{name}", required=name != "token")
    parser.add_argument("--turns", type=int, default=5)
    args = parser.parse_args()
    tools = KmemTools(Client(args.kmem, args.token), args.problem, args.reader, args.policy)

    messages = [{"role": "system", "content": "You write fast, correct PyTorch kernels as a ModelNew class."},
                {"role": "user", "content": f"Optimise problem {args.problem}. What kmem verified:\n\n{tools.get_memory()}"}]
    for turn in range(1, args.turns + 1):
        reply = chat(args.endpoint, args.model, messages)
        messages.append({"role": "assistant", "content": reply})
        offences = tools.check(reply)
        if offences:
            print(f"turn {turn}: check: {offences[0]}")
            messages.append({"role": "user", "content": "The checker refused it:\n" + "\n".join(offences)})
            continue
        outcome = tools.evaluate(reply)
        print(f"turn {turn}: evaluate: {outcome.verdict}")
        if outcome.passed:
            print(f"result: pass {outcome.speedup:.2f}x")
            return 0
        messages.append({"role": "user", "content": f"The evaluator said {outcome.verdict}: {outcome.message}\n{outcome.detail}"})
    print("result: no passing candidate")
    return 1


if __name__ == "__main__":
    sys.exit(main())
