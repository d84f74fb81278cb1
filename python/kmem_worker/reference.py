"""The trusted reference role: draws every input set from the secret seed,
computes and keeps the expected outputs, times the reference, writes only
the inputs for candidates, then judges candidates' saved outputs. Serves one
problem for as many candidates as the orchestrator sends."""
import os
import traceback

import torch

from . import compare, problem, roofline, timing


class Reference:
    def __init__(self, cmd, channel):
        self.device = cmd["device"]
        module = problem.load_module(cmd["problem"], "kmem_problem")
        init_inputs = list(module.get_init_inputs())
        self.model = problem.build_model(module.Model, init_inputs, cmd["init_seed"], self.device)
        trials, spec = cmd["trials"], cmd["timing"]
        sets = problem.input_sets(module, cmd["secret_seed"], trials + spec["sets"], self.device)
        self.trial_inputs, self.timing_inputs = sets[:trials], sets[trials:]
        self.expected = [self._outputs(inputs) for inputs in self.trial_inputs]
        channel.acquire_timing_lock()
        try:
            self.reference_ms, timed, _ = timing.measure(
                self.model, self.timing_inputs, spec["warmup"], spec["iters"], self.device)
        finally:
            channel.release_timing_lock()
        self.expected_timed = [problem.as_output_list(timed[i]) for i in range(len(self.timing_inputs))]
        self.roofline_ms = roofline.problem_floor_ms(
            self.model, problem.clone_inputs(self.timing_inputs[0]), self.expected_timed[0], self.device)
        torch.save({"init_inputs": init_inputs, "trials": self.trial_inputs, "timing": self.timing_inputs},
                   os.path.join(cmd["workdir"], "inputs.pt"))

    def _outputs(self, inputs):
        with torch.no_grad():
            output = self.model(*problem.clone_inputs(inputs))
        problem.synchronize(self.device)
        return [problem.plain_copy(v) for v in problem.as_output_list(output)]

    def degenerate(self, tolerance):
        """Whether every trial's output equals the first although the inputs differ."""
        first = self.expected[0]
        if len(self.expected) < 2:
            return False
        for other in self.expected[1:]:
            try:
                compare.check_structure(first, other, "trial")
            except compare.Mismatch:
                return False
            if not compare.errors(first, other, tolerance)[0]:
                return False
        return True

    def judge(self, outputs_path, tolerance):
        """The facts of one candidate's saved outputs against the expected ones."""
        try:
            saved = torch.load(outputs_path, map_location=self.device, weights_only=True)
            trials, inputs_after, timed = saved["trials"], saved["inputs_after"], saved["timed"]
        except Exception as error:
            return {"correct": False, "failure": "unreadable", "detail": f"outputs unreadable: {error}"}
        verdict = {"trials": len(trials), "max_abs_error": 0.0, "max_rel_error": 0.0}
        try:
            if len(trials) != len(self.expected) or len(inputs_after) != len(self.expected):
                raise compare.Mismatch("missing", f"{len(trials)} trial outputs, expected {len(self.expected)}")
            for i, (expected, actual) in enumerate(zip(self.expected, trials)):
                compare.check_structure(expected, actual, f"trial {i}")
            for i, (original, after) in enumerate(zip(self.trial_inputs, inputs_after)):
                if not compare.same_inputs(original, after):
                    raise compare.Mismatch("mutation", f"trial {i}: an input tensor changed")
            failed = None
            for i, (expected, actual) in enumerate(zip(self.expected, trials)):
                close, worst_abs, worst_rel = compare.errors(expected, actual, tolerance)
                verdict["max_abs_error"] = max(verdict["max_abs_error"], worst_abs)
                verdict["max_rel_error"] = max(verdict["max_rel_error"], worst_rel)
                if not close and failed is None:
                    failed = i
            if failed is not None:
                raise compare.Mismatch("values", f"trial {failed}: values differ beyond tolerance {tolerance:g}")
            if len(timed) != len(self.expected_timed):
                raise compare.Mismatch("timed", "outputs of timed calls are missing")
            for i, (expected, actual) in enumerate(zip(self.expected_timed, timed)):
                compare.check_structure(expected, actual, f"timed set {i}")
                if not compare.errors(expected, actual, tolerance)[0]:
                    raise compare.Mismatch("timed", f"timed set {i}: values differ beyond tolerance {tolerance:g}")
        except compare.Mismatch as mismatch:
            return {**verdict, "correct": False, "failure": mismatch.kind, "detail": mismatch.detail}
        return {**verdict, "correct": True}


def finite(verdict):
    """The verdict with infinite errors capped (JSON has no infinity)."""
    return {k: min(v, 1e308) if isinstance(v, float) else v for k, v in verdict.items()}


def serve(channel):
    reference = None
    while (cmd := channel.receive()) is not None:
        try:
            if cmd["cmd"] == "prepare":
                reference = Reference(cmd, channel)
                channel.send("ready", reference_ms=reference.reference_ms, roofline_ms=reference.roofline_ms,
                             degenerate=reference.degenerate(cmd["tolerance"]))
            elif cmd["cmd"] == "judge" and reference is not None:
                channel.send("verdict", **finite(reference.judge(cmd["outputs"], cmd["tolerance"])))
            else:
                channel.send("error", stage="protocol", message=f"unexpected command {cmd.get('cmd')!r}")
        except Exception as error:
            channel.send("error", stage=cmd.get("cmd", "?"), message=f"{type(error).__name__}: {error}",
                         traceback=traceback.format_exc())
    return 0
