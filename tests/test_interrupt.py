"""Ctrl-C stops every long command within a second (issue 16 item 4): a real ``wizsim`` process busy
in a long computation (advice whose kernels run for a minute, a long summary, a long tournament) gets
SIGINT and must exit with status 130 and one line on stderr, no traceback, within 1.5 s."""

import time
from pathlib import Path

import pytest
from outside import interrupt, message_lines, start_wizsim

PLAY = ["advise", "--hand", "AS,KD,3H,7C,9H", "--trump", "S", "--seat", "2", "--bids", "1,1,1,1", "--played", "2S",
        "--seed", "1"]
LONG = {
    "bid advice": ["advise", "--hand", "AS,KD,3H,7C,9H,2D,JC", "--trump", "S", "--seat", "2", "--bids", "1",
                   "--samples", "5000000", "--seed", "1"],
    "play advice": [*PLAY, "--samples", "3000000"],
    "play advice, search": [*PLAY, "--play", "search", "--samples", "20000"],  # default precision ends in 2 s
    "simulate": ["simulate", "--players", "4", "--round", "15", "--rounds", "1000000000", "--policy", "heuristic"],
    "simulate games": ["simulate", "--players", "4", "--games", "100000000", "--policy", "heuristic"],
    "tournament": ["tournament", "--players", "4", "--policies", "heuristic,random", "--games", "100000000"],
}


@pytest.mark.parametrize("what", list(LONG))
def test_ctrl_c_exits_130_within_a_second_and_a_half(what):
    proc = start_wizsim(LONG[what])
    err, waited = interrupt(proc, lambda: time.sleep(2.5))
    assert proc.returncode == 130, err
    assert waited < 1.5, waited
    lines = message_lines(err)
    assert lines and lines[-1].startswith("interrupted"), err
    assert "Traceback" not in err, err


def numpy_loading(proc, after: float):
    """Wait until the process maps NumPy's extension (wizsim's own imports are under way), then ``after``
    seconds more. Measured from the launch instead, a busy machine can still be starting the interpreter:
    an interrupt while CPython imports ``site`` is CPython's fatal error, before any code of wizsim runs."""
    maps = Path(f"/proc/{proc.pid}/maps")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if "numpy" in maps.read_text():
                break
        except OSError:
            pass
        time.sleep(0.002)
    time.sleep(after)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/PID/maps")
@pytest.mark.parametrize("after", [0.0, 0.05, 0.15, 0.4])
def test_ctrl_c_while_wizsim_loads_is_one_line_too(after):
    """Ctrl-C while Python imports NumPy, Numba and the kernels' cache (the command's first second)."""
    proc = start_wizsim(LONG["simulate"])
    err, waited = interrupt(proc, lambda: numpy_loading(proc, after))
    assert proc.returncode == 130, err
    assert waited < 1.5, waited
    assert "Traceback" not in err and message_lines(err)[-1].startswith("interrupted"), err


def test_ctrl_c_stops_the_server_with_one_line():
    """``wizsim serve`` shuts down on Ctrl-C and says so (not "before the answer was complete")."""
    from wizsim.web import missing_web_extra

    if missing_web_extra():
        pytest.skip(missing_web_extra())
    proc = start_wizsim(["serve", "--port", "0"])

    def ready():
        for line in proc.stdout:
            if "ready at" in line:
                return

    err, waited = interrupt(proc, ready)
    assert proc.returncode == 130, err
    assert waited < 1.5, waited
    assert "Traceback" not in err and message_lines(err)[-1] == "wizsim serve: stopped", err
