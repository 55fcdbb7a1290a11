"""The package imports and the console script answers: the first thing a new user touches."""

from click.testing import CliRunner

import wizsim
from wizsim.cli import main


def test_public_names_are_exported():
    for name in wizsim.__all__:
        assert hasattr(wizsim, name), name


def test_simulate_prints_a_summary():
    result = CliRunner().invoke(main, ["simulate", "--round", "3", "--rounds", "500", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "500 rounds of 3 cards" in result.output
