"""Every --json output is valid JSON (issue 10 item 6): no NaN or Infinity, which json.loads accepts
by default but strict parsers (and JSON itself) do not. Each output is parsed with a parser that
refuses them."""

import json

import pytest
from click.testing import CliRunner

from wizsim.cli import main


def strict(text):
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def run(*args):
    out = CliRunner().invoke(main, list(args))
    assert out.exit_code == 0, out.output
    return out.output


def test_last_round_no_trump_share_is_null_not_nan():
    got = strict(run("simulate", "--round", "15", "--players", "4", "--rounds", "200", "--json"))
    assert got["no_trump_share"] is None
    assert "no-trump share (rounds with a turn-up): n/a, last round" in run(
        "simulate", "--round", "15", "--players", "4", "--rounds", "200")


@pytest.mark.parametrize("args", [
    ("simulate", "--round", "3", "--rounds", "300", "--json"),
    ("simulate", "--games", "3", "--players", "5", "--json"),
    ("tournament", "--policies", "heuristic,random", "--games", "8", "--json"),
    ("advise", "--hand", "AS", "--trump", "S", "--seat", "1", "--json"),
    ("advise", "--hand", "AS,KD", "--trump", "S", "--seat", "2", "--samples", "1", "--seed", "1", "--json"),
    ("advise", "--hand", "AS,KD", "--trump", "S", "--seat", "2", "--seed", "1", "--json"),
])
def test_json_outputs_parse_strictly(args):
    strict(run(*args))


def test_dataset_report_json_parses_strictly(tmp_path):
    got = strict(run("simulate", "--round", "15", "--rounds", "50", "--out", str(tmp_path / "d"), "--json"))
    assert got  # and again, resumed: nothing written, rates over no work
    strict(run("simulate", "--round", "15", "--rounds", "50", "--out", str(tmp_path / "d"), "--json"))
