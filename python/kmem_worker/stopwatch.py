"""Seconds spent in each stage of a worker, sent to the orchestrator with the
worker's last record for the outcome's timeline. Diagnostics only: no verdict
depends on them."""
import time


class Stopwatch:
    def __init__(self, started):
        self._last = started
        self.seconds = {}

    def lap(self, stage):
        """Charges the time since the previous lap to `stage`."""
        now = time.monotonic()
        self.seconds[stage] = round(self.seconds.get(stage, 0.0) + now - self._last, 4)
        self._last = now
