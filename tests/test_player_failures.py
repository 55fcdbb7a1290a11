"""Users' players fail cleanly (issue 32 item 2): an exception raised by a user's player at import or
while deciding (SystemExit included) is one line naming the player, the seat, the decision and the
(seed, round index) that replays it: exit 2 on the command line, a ``PlayerError`` (a ``ConfigError``)
with the original as its cause in Python. A time limit per decision (``--decision-timeout``) stops a
player that never answers; a real Ctrl-C still stops the command as ever."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numba
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from outside import GREEDY_BOT

import wizsim
from wizsim.cli import main
from wizsim.config import ConfigError, PlayerError
from wizsim.dataset.run import MANIFEST
from wizsim.jit import lowest_card
from wizsim.policies.registry import USER_IDENTITIES, USER_PLAYERS

ROOT = Path(__file__).resolve().parent.parent

# Greedy (tests/outside.py) and players that go wrong in each way a user's code can
BOTS = GREEDY_BOT + textwrap.dedent('''
    import time

    CALLS = [0]
    Fine = Greedy


    class Raiser(Fine):
        """Fails at its 40th card: some rounds (and chunks) complete before it."""

        def card(self, obs):
            CALLS[0] += 1
            if CALLS[0] == 40:
                return {}["no such key"]
            return obs.legal[0]


    class Exiter(Fine):
        def card(self, obs):
            raise SystemExit(7)


    class Sleeper(Fine):
        def card(self, obs):
            time.sleep(3600)


    class OwnTimeout(Fine):
        def card(self, obs):
            raise TimeoutError("mine")


    class Illegal(Fine):
        def bid(self, obs):
            return 99
''')


@pytest.fixture
def bots(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots.py").write_text(BOTS)
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(3)\n")
    yield tmp_path
    for name in [n for n in USER_PLAYERS if n.startswith(("bots.py", "exits.py"))]:
        USER_PLAYERS.pop(name, None)
        USER_IDENTITIES.pop(name, None)


def one_error(res) -> str:
    out = res.output if hasattr(res, "output") else res.stdout + res.stderr
    status = res.exit_code if hasattr(res, "exit_code") else res.returncode
    assert status == 2, out
    assert "Traceback" not in out, out
    lines = [line for line in out.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, out
    return lines[0]


def wizsim_cmd(args, cwd: Path, timeout: float = 600):
    return subprocess.run([sys.executable, "-m", "wizsim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


# --- Python: Round.play, Game.play, simulate_*, run_tournament ---------------------------------------

def test_round_play_raises_a_player_error_with_the_original_as_cause(bots):
    with pytest.raises(PlayerError) as info:
        wizsim.Round(4, 3, seed=1, index=5).play(["bots.py:Exiter", "heuristic", "random", "heuristic"])
    err = info.value
    assert isinstance(err, ConfigError) and isinstance(err.__cause__, SystemExit) and err.__cause__.code == 7
    assert str(err) == ("player 'bots.py:Exiter' at seat 1, deciding its card, raised SystemExit: 7 (to replay: seed 1, "
                        "round index 5: wizsim.Round(4, 3, seed=1, index=5))")
    with pytest.raises(PlayerError, match=r"'bots.py:Illegal' at seat 2, deciding its bid, answered: a bid 99 is not "
                                          r"legal for seat 2"):
        wizsim.Round(4, 3, seed=1).play(["heuristic", "bots.py:Illegal", "random", "random"])


def test_games_batches_and_tournaments_raise_it_too(bots):
    with pytest.raises(PlayerError, match=r"'bots.py:Exiter' at seat \d, deciding its card, raised SystemExit: 7 "
                                          r"\(to replay: seed 4, round index 0"):
        wizsim.Game(4, seed=4).play(["bots.py:Exiter", "random", "random", "random"])
    with pytest.raises(PlayerError, match=r"raised KeyError: 'no such key' \(to replay: seed 2, round index 6:"):
        wizsim.simulate_rounds(4, 3, 50, ["bots.py:Raiser", "random"], seed=2)  # 2 seats x 3 cards: round 6
    with pytest.raises(PlayerError, match="'bots.py:Exiter'") as info:
        wizsim.run_tournament(4, ["bots.py:Exiter", "random"], 4, seed=1)
    assert isinstance(info.value.__cause__, SystemExit)


def test_a_decision_past_the_time_limit_is_the_same_error(bots):
    t0 = time.monotonic()
    with pytest.raises(PlayerError, match=r"'bots.py:Sleeper' at seat \d, deciding its card, took more than 0.3 s "
                                          r"\(the decision time limit\) \(to replay: seed 1, round index \d+") as info:
        wizsim.run_tournament(4, ["bots.py:Sleeper", "random"], 4, seed=1, decision_timeout=0.3)
    assert time.monotonic() - t0 < 30
    assert isinstance(info.value.__cause__, TimeoutError)
    # a TimeoutError of the player's own is what it raised, not the limit
    with pytest.raises(PlayerError, match=r"deciding its card, raised TimeoutError: mine \(to replay"):
        wizsim.Round(4, 3, seed=1).play(["bots.py:OwnTimeout", "random", "random", "random"])
    # within the limit nothing changes: the same rounds as without one
    a = wizsim.simulate_rounds(4, 3, 20, ["bots.py:Fine", "heuristic"], seed=3)
    b = wizsim.simulate_rounds(4, 3, 20, ["bots.py:Fine", "heuristic"], seed=3, decision_timeout=5)
    assert (a.bids == b.bids).all() and (a.scores == b.scores).all()
    for bad in (0, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(ConfigError, match="decision_timeout must be a number of seconds above 0"):
            wizsim.simulate_rounds(4, 3, 2, "random", decision_timeout=bad)


def test_a_module_that_exits_at_import_is_an_error_not_an_exit(bots):
    with pytest.raises(PlayerError, match=r"player 'exits.py:Bot': cannot load exits.py: SystemExit: 3") as info:
        wizsim.simulate_rounds(4, 3, 2, ["exits.py:Bot", "random"])
    assert isinstance(info.value.__cause__, SystemExit)
    res = CliRunner().invoke(main, ["tournament", "--policies", "exits.py:Bot,random", "--games", "4"])
    assert "cannot load exits.py: SystemExit: 3" in one_error(res)
    # a module whose import failed is not left behind as if it had loaded
    with pytest.raises(PlayerError, match="SystemExit: 3"):
        wizsim.simulate_rounds(4, 3, 2, ["exits.py:Bot", "random"])


@numba.njit
def _boom_card(obs, rng):
    if obs.r == 3:
        raise ValueError("boom")
    return lowest_card(obs.legal)


@numba.njit
def _zero_bid(obs, rng):
    return 0 if obs.forbidden != 0 else 1


def test_a_jitted_player_that_raises_inside_the_kernel_is_named(bots):
    boom = wizsim.jit_player("boom", bid=_zero_bid, card=_boom_card)
    try:
        with pytest.raises(PlayerError, match=r"jitted player 'boom' raised ValueError: boom in one of rounds 0..9 of "
                                              r"seed 1 \(the same rounds played with wizsim.Round") as info:
            wizsim.simulate_rounds(4, 3, 10, [boom, "random"], seed=1)
        assert isinstance(info.value.__cause__, ValueError)
        with pytest.raises(PlayerError, match=r"player 'boom' at seat 1, deciding its card, raised ValueError: boom "
                                              r"\(to replay: seed 1, round index 0"):
            wizsim.Round(4, 3, seed=1).play([boom, "random", "random", "random"])
    finally:
        USER_PLAYERS.pop("boom", None)
        USER_IDENTITIES.pop("boom", None)


# --- the command line --------------------------------------------------------------------------------

def test_tournament_with_a_raising_player_is_one_line_exit_2(bots):
    res = CliRunner().invoke(main, ["tournament", "--policies", "bots.py:Raiser,random", "--games", "4", "--seed", "1"])
    line = one_error(res)
    assert "player 'bots.py:Raiser' at seat" in line and "deciding its card, raised KeyError: 'no such key'" in line
    assert "to replay: seed 1, round index" in line


def test_simulate_out_with_a_raising_player_keeps_the_complete_chunks(bots):
    res = CliRunner().invoke(main, ["simulate", "--round", "2", "--rounds", "100", "--chunk-size", "4", "--policies",
                                    "bots.py:Raiser,random", "--seed", "2", "--out", "d"])
    line = one_error(res)
    # 2 seats x 2 cards a round: the 40th card is round 9's (chunk 2)
    assert re.search(r"'bots.py:Raiser' at seat [13], deciding its card, raised KeyError", line), line
    assert "(to replay: seed 2, round index 9: wizsim.Round(4, 2, seed=2, index=9))" in line
    files = sorted(p.name for p in (bots / "d").rglob("*.parquet"))
    assert files == ["part-000000.parquet", "part-000001.parquet"]
    for p in (bots / "d").rglob("*.parquet"):
        pq.read_metadata(p)
    assert json.loads((bots / "d" / MANIFEST).read_text())["status"] == "failed"


def test_system_exit_in_card_never_ends_the_real_process_silently(bots):
    """``SystemExit(7)`` in card(): the real command exits 2 with the line, not 7 without a word."""
    for args in (["tournament", "--policies", "bots.py:Exiter,random", "--games", "4"],
                 ["simulate", "--round", "3", "--rounds", "20", "--policies", "bots.py:Exiter,random", "--out", "d"]):
        res = wizsim_cmd(args, bots)
        line = one_error(res)
        assert re.search(r"'bots.py:Exiter' at seat \d, deciding its card, raised SystemExit: 7 \(to replay: seed 0, "
                         r"round index \d+", line), line
    assert not (bots / "d").exists()  # a run that completed no chunk leaves nothing


def test_a_card_that_sleeps_for_ever_does_not_stall_a_tournament(bots):
    t0 = time.monotonic()
    res = wizsim_cmd(["tournament", "--policies", "bots.py:Sleeper,random", "--games", "4", "--decision-timeout",
                      "0.5"], bots, timeout=300)
    line = one_error(res)
    assert re.search(r"'bots.py:Sleeper' at seat \d, deciding its card, took more than 0.5 s", line), line
    assert time.monotonic() - t0 < 120
    res = CliRunner().invoke(main, ["tournament", "--policies", "random", "--decision-timeout", "0"])
    assert res.exit_code == 2 and "--decision-timeout" in res.output


@pytest.mark.parametrize("command", [
    ["tournament", "--policies", "bots.py:Sleeper,random", "--games", "4"],
    ["simulate", "--round", "3", "--rounds", "20", "--policies", "bots.py:Sleeper,random", "--out", "d"],
])
def test_ctrl_c_inside_a_users_player_still_stops_the_command(bots, command):
    """A real Ctrl-C while the user's card() sleeps: status 130 and one line, as for built-in players."""
    proc = subprocess.Popen([sys.executable, "-m", "wizsim", *command], cwd=bots, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(8)  # loaded, compiled from the cache, asleep in card()
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert waited < 3, waited
    assert "Traceback" not in err and "interrupted" in err.splitlines()[-1], err
