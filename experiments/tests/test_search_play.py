"""The search-play diagnostic's replay (experiments/search_play.py, docs/results.md, "Why the search table misses"): a
round played with its trick log is replayed card by card, each card set beside the heuristic's in the
same spot. On a table of heuristics that must be the heuristic's card every time; on a random table not."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import experiment


@pytest.fixture(scope="module")
def search_play():
    return experiment("search_play")


def test_a_heuristic_table_replays_to_the_heuristics_card_at_every_choice(search_play):
    runs = search_play.play(4, 6, 20, "heuristic", seed=3)
    for hero, _batch, rows in runs:
        assert (rows[:, search_play.CARD] == rows[:, search_play.HEURISTIC]).all()
        assert (rows[:, search_play.CARD_WINS] == rows[:, search_play.HEURISTIC_WINS]).all()
        assert (rows[:, -1] == hero).all()


def test_the_replay_follows_the_log_trick_by_trick(search_play):
    """Each trick has one row a seat, led at place 0, and exactly one of them won it: the winner the log
    says; each seat's won rows add up to its tricks."""
    runs = search_play.play(4, 6, 20, "random", seed=4)
    for _, batch, rows in runs:
        per_round = rows.reshape(batch.n, 6 * 4, -1)
        for i in range(batch.n):
            x = per_round[i]
            assert (x[:, search_play.PLACE] == np.tile(np.arange(4), 6)).all()
            assert (x[:, search_play.CARD] == batch.log_cards[i]).all()
            won = x[x[:, search_play.WON] == 1]
            assert (won[:, search_play.TRICK] == np.arange(6)).all()
            assert (won[:, search_play.SEAT] == batch.log_winner[i]).all()
            assert (np.bincount(won[:, search_play.SEAT], minlength=4) == batch.tricks[i]).all()


def test_a_random_table_leaves_the_heuristics_card_and_the_report_says_so(search_play):
    rows = np.concatenate([x for _, _, x in search_play.play(4, 6, 20, "random", seed=4)])
    choices = rows[rows[:, search_play.N_LEGAL] > 1]
    opponents = choices[choices[:, search_play.SEAT] != choices[:, -1]]
    hero = choices[choices[:, search_play.SEAT] == choices[:, -1]]
    assert 0.2 < np.mean(opponents[:, search_play.CARD] == opponents[:, search_play.HEURISTIC]) < 0.8
    assert (hero[:, search_play.CARD] == hero[:, search_play.HEURISTIC]).all()
    lines = search_play.report(4, 6, 10, "heuristic", seed=3)
    assert all("the heuristic's card 1.000" in line for line in lines if "choices" in line)
    assert lines[-1].startswith("hero makes its bid ")
