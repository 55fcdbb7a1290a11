"""Your own player at wizsim's table (issue 18 item 2): any object with trump/bid/card sits in
simulate_rounds, simulate_games, run_tournament, datasets and the CLI; an unknown policy is an error."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from outside import GREEDY_BOT

import wizsim
from wizsim import player
from wizsim.cli import main
from wizsim.config import ConfigError
from wizsim.policies import make_slots
from wizsim.policies.registry import POLICIES, PolicyEntry


class HeuristicInside:
    """A user's player that asks wizsim's heuristic: at the table it must play as the heuristic plays."""

    name = "heuristic-inside"

    def __init__(self):
        self.inner = player("heuristic", seed=0)

    def trump(self, obs):
        return self.inner.trump(obs)

    def bid(self, obs):
        return self.inner.bid(obs)

    def card(self, obs):
        return self.inner.card(obs)


def test_a_python_player_plays_as_the_policy_it_wraps():
    mine = wizsim.simulate_rounds(4, 6, 40, [HeuristicInside(), "heuristic"], seed=4, trick_log=True)
    ours = wizsim.simulate_rounds(4, 6, 40, "heuristic", seed=4, trick_log=True)
    assert mine.policies == ["heuristic-inside", "heuristic"] * 2
    assert (mine.hands == ours.hands).all() and (mine.turn_up == ours.turn_up).all()
    # the dealer's suit on a turned-up Wizard may be a coin flip between suits, drawn from another stream
    same = ~((mine.turn_up >= 52) & (mine.turn_up < 56))
    assert same.sum() > 30
    for arr in ("bids", "tricks", "scores", "log_cards", "log_leader", "log_winner"):
        assert (getattr(mine, arr)[same] == getattr(ours, arr)[same]).all(), arr


def test_a_python_player_plays_whole_games_and_tournaments(tmp_path):
    games = wizsim.simulate_games(3, 2, [HeuristicInside(), "random", "heuristic"], seed=2, trick_log=True)
    assert games.player_policies[0] == ["heuristic-inside", "random", "heuristic"]
    assert (games.tricks.sum(axis=2) == np.arange(1, 21)).all()
    result = wizsim.run_tournament(3, [HeuristicInside(), "random", "random"], games=6, seed=1)
    names = [p["name"] for p in result.to_dict()["policies"]]
    assert sorted(names) == ["heuristic-inside", "random"]


def test_a_player_in_a_file_plays_a_tournament_from_the_command_line(tmp_path, monkeypatch):
    (tmp_path / "greedy.py").write_text(GREEDY_BOT)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["tournament", "--players", "4", "--policies", "greedy.py:Greedy,heuristic",
                                    "--games", "4", "--seed", "3", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert {p["name"] for p in result["policies"]} == {"greedy.py:Greedy", "heuristic"}
    assert result["games"] == 4
    out = CliRunner().invoke(main, ["simulate", "--players", "4", "--round", "3", "--rounds", "20",
                                    "--policies", "greedy.py:Greedy,random", "--out", str(tmp_path / "ds")])
    assert out.exit_code == 0, out.output
    rows = wizsim.read_rounds(tmp_path / "ds")
    assert set(rows.policy.astype(str)) == {"greedy.py:Greedy", "random"}


@pytest.mark.parametrize("policies, needle", [
    ("mine,heuristic", "unknown policy 'mine'"),
    ("nowhere.py:Bot,heuristic", "no file nowhere.py"),
    ("greedy.py:Missing,heuristic", "greedy.py has no Missing"),
])
def test_an_unknown_player_exits_2_naming_it(tmp_path, monkeypatch, policies, needle):
    (tmp_path / "greedy.py").write_text(GREEDY_BOT)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["tournament", "--players", "4", "--policies", policies, "--games", "4"])
    assert out.exit_code == 2 and needle in out.output, out.output


def test_an_entry_whose_kind_the_kernels_do_not_know_is_refused(monkeypatch):
    monkeypatch.setitem(POLICIES, "mine", PolicyEntry("mine", 3))
    with pytest.raises(ConfigError, match="kind 3, which the kernels do not know"):
        make_slots(["mine", "heuristic"])
    with pytest.raises(ConfigError, match="kind 3"):
        wizsim.simulate_rounds(4, 3, 10, "mine")


def test_an_object_without_the_three_methods_is_refused():
    class Half:
        def bid(self, obs):
            return 0

    with pytest.raises(ConfigError):
        wizsim.simulate_rounds(4, 3, 2, [Half(), "random"])
