"""kmem's evaluation worker: runs a KernelBench problem (role `reference`,
trusted) or a candidate (role `candidate`, untrusted) with torch and reports
facts to the C++ orchestrator over a JSON-lines channel. It decides no
verdict; the protocol is described in docs/evaluator.md."""
