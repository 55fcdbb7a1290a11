"""Helpers for tests that drive real things outside the test process: ``wizsim`` commands, users' bot
files, a browser."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A user's player as a file (``greedy.py:Greedy`` on the command line, on a Dask worker, in a dataset).
GREEDY_BOT = textwrap.dedent('''
    class Greedy:
        """Bids every Wizard and ace it holds, plays its highest legal card."""

        def trump(self, obs):
            return 0

        def bid(self, obs):
            want = sum(1 for c in obs.hand if c >= 52 and c < 56 or (c < 52 and c % 13 == 12))
            return min(obs.legal, key=lambda b: abs(b - want))

        def card(self, obs):
            return max(obs.legal)
''')


def _as_from_a_shell():
    # a shell starts a command with Ctrl-C at its default; a test process may have left SIGINT ignored
    # (an ignored signal is inherited, and Python then never installs its handler)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_wizsim(args) -> subprocess.Popen:
    """``wizsim ARGS`` as the installed command runs it (``python -m wizsim``), from this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen([sys.executable, "-m", "wizsim", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT, preexec_fn=_as_from_a_shell)


def interrupt(proc: subprocess.Popen, ready) -> tuple[str, float]:
    """Wait for ``ready()`` (it waits or sleeps as it likes), check the process still runs, send Ctrl-C;
    return its stderr and the seconds it took to exit. The process never outlives the call."""
    try:
        ready()
        assert proc.poll() is None, proc.communicate()  # still computing: the test means something
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        return err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def message_lines(err: str) -> list[str]:
    """stderr without progress bars and the compile notice."""
    return [line for line in err.splitlines() if line.strip() and "it/s" not in line and "%|" not in line
            and not line.startswith("wizsim: ") and not line.startswith("Compiling")]


def skip_without_browser():
    """Skip the calling module where Chromium, its driver or the web extras are missing; in CI (``.ci/run``
    installs them) never: a missing browser fails there."""
    import pytest
    from harness import chromium_available

    if os.environ.get("CI") == "true":
        return
    pytest.importorskip("selenium")
    pytest.importorskip("fastapi")
    if not chromium_available():
        pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
                    allow_module_level=True)
