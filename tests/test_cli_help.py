"""What users noticed (issue 10 item 9): --help lists the policy names and the valid ranges and shows
an example per command; counts agree with their nouns; policy names print as stored (lower case);
error lines cut a huge input; long runs show progress when stderr is not a terminal; a first run says it
compiles, on a terminal or not (issue 16 item 6)."""

import re

import pytest
from helpers import invoke

from wizsim import cli
from wizsim.policies import policy_names


@pytest.mark.parametrize("command", ["simulate", "advise", "tournament", "serve"])
def test_every_command_help_has_an_example(command):
    out = invoke(command, "--help").output
    assert f"Example:\n    wizsim {command} " in out


@pytest.mark.parametrize("command", ["simulate", "advise", "tournament"])
def test_help_lists_policies_and_ranges(command):
    out = " ".join(invoke(command, "--help").output.split())
    for name in policy_names():
        assert name in out
    assert "3<=x<=6" in out  # players
    if command in ("simulate", "advise"):
        assert "1..15 with 4 players" in out and "1..20 with 3 players" in out


def test_one_of_a_thing_is_singular():
    out = invoke("simulate", "--round", "1", "--rounds", "1").output
    assert out.startswith("1 round of 1 card, ")
    out = invoke("simulate", "--games", "1", "--players", "6").output
    assert out.startswith("1 game (10 rounds), ")
    out = invoke("tournament", "--policies", "random", "--games", "1").output
    assert out.startswith("1 game (1 deal x 1 rotation), ")


def test_dataset_report_is_singular_for_one(tmp_path):
    out = invoke("simulate", "--round", "1", "--rounds", "1", "--out", str(tmp_path / "d")).output
    assert "wrote 1 of 1 chunk (1 round, 1 file," in out


def test_policy_names_print_as_stored():
    out = invoke("simulate", "--round", "2", "--rounds", "10", "--policies", "HEURISTIC,Random").output
    assert "policies heuristic,random,heuristic,random" in out
    out = invoke("tournament", "--policies", "Heuristic,RANDOM", "--games", "2").output
    assert "table heuristic,random,heuristic,random" in out and "Heuristic" not in out


def test_an_error_line_cuts_a_5000_card_input():
    hand = ",".join(["2S"] * 5000)
    res = invoke("advise", "--hand", hand, "--trump", "H", "--seat", "1")
    assert res.exit_code == 2
    last = res.output.strip().splitlines()[-1]
    assert last.startswith("Error:") and len(last) < 300 and "..." in last


def test_progress_lines_without_a_terminal(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "PROGRESS_SECONDS", 0.0)
    res = invoke("simulate", "--round", "2", "--rounds", "500", "--chunk-size", "100", "--out", str(tmp_path / "d"))
    assert res.exit_code == 0, res.output
    lines = [line for line in res.stderr.splitlines() if line.startswith("wizsim: ")]
    assert len(lines) >= 3 and all(re.search(r"of 500 rounds \(\d+%\)", line) for line in lines), res.stderr
    assert "\r" not in res.stderr  # no terminal bar in a log


def test_no_progress_lines_for_a_short_run(tmp_path):
    res = invoke("simulate", "--round", "2", "--rounds", "500", "--chunk-size", "100", "--out", str(tmp_path / "d"))
    assert not [line for line in res.stderr.splitlines() if re.search(r"of 500 rounds", line)], res.stderr


_NOTICE = """
import sys
from wizsim import _notice
_notice.said = True  # as the wizsim command (__main__) does: its notice stands for the library's
from wizsim import cli
from wizsim.rules.kernels import score_round
cli.announce_compile("simulate", score_round)
score_round(1, 1)  # compiles, and caches
"""


def test_compile_notice_off_a_terminal_on_an_empty_cache_only(tmp_path):
    """The first-run notice is printed in a log too (prefixed), with the command's figure, and only when
    the cache lacks the kernels."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "WIZSIM_NUMBA_CACHE": "1"}

    def notice():
        return subprocess.run([sys.executable, "-c", _NOTICE], env=env, capture_output=True, text=True,
                              check=True).stderr

    first = notice()
    about = round(cli.compile_seconds_measured("simulate"))
    assert first.startswith("wizsim: Compiling wizsim's kernels for simulate") and f"about {about} s" in first, first
    assert "Compiling" not in notice()


_LIBRARY = """
import wizsim
wizsim.simulate_rounds(players=3, r=2, n_rounds=10, seed=1)
wizsim.simulate_rounds(players=3, r=2, n_rounds=10, seed=2)
"""


def test_the_library_says_once_that_it_compiles(tmp_path):
    """A library user hears the compile too (the wizsim logger, printed to stderr when the application set up no
    logging), once a process and only when something compiles; the rates it returns leave compiling out."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "WIZSIM_NUMBA_CACHE": "1"}

    def stderr():
        return subprocess.run([sys.executable, "-c", _LIBRARY], env=env, capture_output=True, text=True,
                              check=True).stderr

    first = [line for line in stderr().splitlines() if "compiling kernels" in line]
    assert len(first) == 1 and first[0].startswith("wizsim: compiling kernels for this machine"), first
    assert "compiling" not in stderr()
