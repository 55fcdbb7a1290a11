"""Issue 32 on the command line: a count written ``1e6`` is read when exact (and a fraction is refused
as not a whole number, not as "not a valid integer range"); the advisor's model names built-in policies
only, and says so for a user's player; a result that cannot be written (a full disk, /dev/full) is one
line, never an OSError traceback."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_errors import one_error
from click.testing import CliRunner

from wizsim.cli import main

ROOT = Path(__file__).resolve().parent.parent
SIM = ["simulate", "--round", "2", "--policy", "random", "--seed", "3", "--json"]
BID = ["advise", "--hand", "AS,KD,3H", "--trump", "S", "--seat", "1", "--seed", "1", "--samples", "20"]


def test_a_count_written_as_a_power_of_ten_is_the_same_count():
    def summary(rounds):
        res = CliRunner().invoke(main, [*SIM, "--rounds", rounds])
        assert res.exit_code == 0, (rounds, res.output)
        return {k: v for k, v in json.loads(res.output).items() if "second" not in k}  # timings differ

    plain = summary("20")
    assert plain["rounds"] == 20
    for text in ("2e1", "2E1", "2.0e1", "20.0", "0.2e2"):
        assert summary(text) == plain, text


@pytest.mark.parametrize("text, needle", [
    ("1.5", "Invalid value for '--rounds': '1.5' is not a whole number"),  # "not a valid integer range", before
    ("1e-3", "'1e-3' is not a whole number"),
    ("2.5e0", "'2.5e0' is not a whole number"),
    ("1e999999999", "'1e999999999' is far above the largest allowed value"),  # never 10**999999999 in memory
    ("0e0", "0 is not in the range x>=1"),
    ("nan", "'nan' is not a valid integer"),
    ("inf", "'inf' is not a valid integer"),
])
def test_a_count_that_is_not_a_whole_number_says_so(text, needle):
    one_error([*SIM, "--rounds", text], needle)


def test_seeds_and_players_read_the_same_way():
    res = CliRunner().invoke(main, [*SIM, "--rounds", "4", "--seed", "1e3", "--players", "5e0"])
    assert res.exit_code == 0 and '"seed": 1000' in res.output and '"players": 5' in res.output, res.output
    one_error([*SIM, "--rounds", "4", "--seed", "1e30"], "'--seed'")


def test_a_users_player_as_the_advisors_model_is_refused_as_such(tmp_path, monkeypatch):
    (tmp_path / "p_ok.py").write_text("class Ok:\n    def trump(self, obs): return 0\n    def bid(self, obs): return 0\n"
                                      "    def card(self, obs): return obs.legal[0]\n")
    monkeypatch.chdir(tmp_path)
    for option in ("--policy", "--play"):
        line = one_error([*BID, option, "p_ok.py:Ok"], "'p_ok.py:Ok' is a user's player, but the advisor's model of the "
                                                   "table takes built-in policies only: heuristic, net, random, search")
        assert line.startswith(f"Error: {option[2:]}: "), line
    one_error([*BID, "--policy", "heuristic,p_ok.py:Ok,random"], "built-in policies only")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [[*SIM, "--rounds", "10"], [*BID, "--json"], ["simulate", "--round", "2", "--rounds", "10"]])
def test_a_full_disk_behind_stdout_is_one_line_not_a_traceback(args):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "wizsim", *args], stdout=full, stderr=subprocess.PIPE, text=True,
                              env=env, cwd=ROOT, timeout=600)
    lines = [line for line in proc.stderr.splitlines() if line.strip() and not line.startswith("wizsim: ")]
    assert proc.returncode == 1, proc.stderr  # a storage fault, as a full disk under --out is
    assert lines == ["Error: cannot write the result to standard output: No space left on device"], proc.stderr
