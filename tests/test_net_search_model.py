"""``net:weights=search`` (issue 35 deliverable 5): the same networks over a second shipped weights file,
``wizsim/data/net-search.npz``, trained on the search's own kind of values alone: the advisor's model of
strong players. The seat plays that file's weights (as plain ``net`` does when ``WIZSIM_NET_WEIGHTS``
names it), its identity is that file's digest, a missing or damaged file is one error naming it, and a
run cannot seat both sets (one shared table a run)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import invoke

import wizsim
from wizsim.config import ConfigError
from wizsim.policies import net as K
from wizsim.policies.net_weights import (
    DEFAULT_PATH,
    ENV_PATH,
    ENV_SEARCH_PATH,
    SEARCH_PATH,
    digest,
    read_weights,
    weights_path,
)
from wizsim.policies.registry import make_slots, seat_identity
from wizsim.table.batch import python_rounds

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("bids", "tricks", "scores")


def test_the_search_weights_ship_and_say_how_they_were_made():
    w, meta = read_weights(SEARCH_PATH)
    assert w.shape == (K.N_WEIGHTS,) and meta["encoding_version"] == K.ENCODING_VERSION
    assert "--heuristic-seats-rounds all" in meta["command"] and meta["improve_self"] == 0
    assert not np.array_equal(w, read_weights(DEFAULT_PATH)[0])
    assert weights_path("search") == SEARCH_PATH


def test_a_search_weights_seat_plays_that_file_as_net_does(monkeypatch):
    """The same rounds as ``net`` told the search file's path, and not the rounds of the shipped player."""
    slots = make_slots(["net:weights=search", "heuristic"])
    assert np.array_equal(slots.table[K.NET_OFFSET:], read_weights(SEARCH_PATH)[0])
    model = wizsim.simulate_rounds(4, 8, 60, ["net:weights=search", "heuristic"], seed=3)
    player = wizsim.simulate_rounds(4, 8, 60, ["net", "heuristic"], seed=3)
    table = copy.deepcopy(model)  # the open table's player of that name plays the same rounds
    for f in FIELDS:
        getattr(table, f)[...] = 0
    python_rounds(table, False, False)
    for f in FIELDS:
        assert np.array_equal(getattr(model, f), getattr(table, f)), f
    monkeypatch.setenv(ENV_PATH, str(SEARCH_PATH))
    told = wizsim.simulate_rounds(4, 8, 60, ["net", "heuristic"], seed=3)
    for f in FIELDS:
        assert np.array_equal(getattr(model, f), getattr(told, f)), f
    assert any(not np.array_equal(getattr(model, f), getattr(player, f)) for f in FIELDS)


def test_its_identity_is_the_search_files_digest():
    ident, plain = seat_identity("net:weights=search"), seat_identity("net")
    assert ident["net_weights"] == digest(read_weights(SEARCH_PATH)[0].astype(np.float32))
    assert plain["net_weights"] != ident["net_weights"]
    assert seat_identity("net:weights=play") == plain  # the default spelled out is plain net


def test_a_missing_or_damaged_search_file_is_one_error_naming_it(tmp_path, monkeypatch):
    gone = tmp_path / "gone.npz"
    monkeypatch.setenv(ENV_SEARCH_PATH, str(gone))
    with pytest.raises(ConfigError, match=r"gone\.npz.*not found"):
        make_slots(["net:weights=search"])
    make_slots(["net"])  # the player's own file is not the search model's
    bad = tmp_path / "bad.npz"
    raw = bytearray(SEARCH_PATH.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    bad.write_bytes(bytes(raw))
    env = {**__import__("os").environ, ENV_SEARCH_PATH: str(bad), "PYTHONPATH": str(ROOT / "src")}
    p = subprocess.run([sys.executable, "-m", "wizsim", "simulate", "--policy", "net:weights=search", "--round", "3",
                        "--rounds", "10"], capture_output=True, text=True, env=env)
    assert p.returncode == 2
    errors = [line for line in p.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and str(bad) in errors[0] and "Traceback" not in p.stderr


def test_one_run_cannot_seat_both_weights():
    with pytest.raises(ConfigError, match="one table per run"):
        make_slots(["net", "net:weights=search"])
    make_slots(["net:weights=search", "heuristic", "search:worlds=2"])  # the heuristic's values are in its table
    with pytest.raises(ConfigError, match="weights must be play or search"):
        make_slots(["net:weights=best"])


def test_the_advisor_told_the_search_model():
    """Bid advice told ``--policy net:weights=search`` answers with that model: the same seed gives the same
    answer, which differs from the answer told the shipped player."""
    q = ["--hand", "W,AS,3H,KD,9C", "--trump", "S", "--seat", "2", "--bids", "1", "--seed", "1", "--samples", "600",
         "--json"]
    res = invoke("advise", *q, "--policy", "net:weights=search")
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert got["policy"] == "net:weights=search" and got["warning"] is None
    assert got == json.loads(invoke("advise", *q, "--policy", "net:weights=search").output)
    assert got["table"] != json.loads(invoke("advise", *q, "--policy", "net").output)["table"]
