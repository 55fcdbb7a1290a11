"""The open table (issue 18 item 1): a round and a game anyone can step, observations that show a seat only
what docs/rules.md lets it see, resampling that keeps what the seat knows, and players as objects."""

import numpy as np
import pytest
from helpers import midway
from hypothesis import given, settings
from hypothesis import strategies as st

import wizsim
from wizsim import Game, Round, player
from wizsim.cards import N_RANKS, N_SUITED, parse_cards
from wizsim.config import ConfigError
from wizsim.rules.api import score

TABLES = [["heuristic"] * 4, ["random"] * 4, ["heuristic", "random", "heuristic:bid_shift=0.5", "random"],
          ["search:worlds=4", "heuristic", "random", "heuristic"]]


@pytest.mark.parametrize("names", TABLES, ids=["heuristic", "random", "mixed", "search"])
@pytest.mark.parametrize("r, hook", [(1, False), (7, True), (15, False)])
def test_stepping_built_in_players_plays_the_rounds_simulate_rounds_plays(names, r, hook):
    n = 2 if names[0].startswith("search") else 12
    batch = wizsim.simulate_rounds(4, r, n, names, seed=11, first_index=5, hook=hook)
    for i in range(n):
        rd = Round(4, r, seed=11, index=5 + i, hook=hook)
        scores = rd.play(names)
        assert rd.turn_up == batch.turn_up[i]
        assert rd.hands == tuple(tuple(int(c) for c in np.flatnonzero([(int(h) >> k) & 1 for k in range(60)]))
                                 for h in batch.hands[i])
        assert rd.bids == tuple(batch.bids[i]) and rd.tricks == tuple(batch.tricks[i])
        assert scores == tuple(batch.scores[i])


@pytest.mark.parametrize("players", [3, 5, 6])
def test_stepping_a_whole_game_plays_the_game_simulate_games_plays(players):
    names = ["heuristic", "random", "heuristic:bid_shift=-0.5", "random", "heuristic", "random"][:players]
    batch = wizsim.simulate_games(players, 2, names, seed=5, first_game=3, hook=True)
    for j in range(2):
        game = Game(players, seed=5, index=3 + j, hook=True)
        assert game.first_dealer == batch.first_dealer[j] + 1
        assert game.play(names) == tuple(batch.final[j])
        assert game.is_over and len(game.history) == 60 // players


def test_an_observation_shows_no_hidden_card():
    rd = midway()
    for seat in range(1, 5):
        obs = rd.observation(seat)
        others = {c for s, h in enumerate(rd.hands, start=1) if s != seat for c in h} - {c for _, c in rd.played}
        assert not others & set(obs.hand)
        # the hidden cards change, the seat's view does not
        changed = 0
        for k in range(20):
            world = rd.resample(seat, k)
            assert world.observation(seat) == obs
            assert world.information_state(seat) == rd.information_state(seat)
            changed += world.hands != rd.hands
        assert changed >= 15


def test_resample_keeps_what_the_seat_knows():
    rd = midway(seed=8, r=12, cards=21)
    seat = rd.current_player
    obs = rd.observation(seat)
    played = {c for _, c in rd.played}
    seen_hidden = set()
    for k in range(40):
        w = rd.resample(seat, np.random.default_rng(k))
        assert w.hands[seat - 1] == rd.hands[seat - 1]  # its own hand as dealt
        assert w.turn_up == rd.turn_up and w.bids == rd.bids and w.played == rd.played and w.tricks == rd.tricks
        live = [w.observation(s).hand for s in range(1, 5)]
        assert [len(h) for h in live] == [len(rd.observation(s).hand) for s in range(1, 5)]  # counts
        every = [c for h in live for c in h]
        assert len(every) == len(set(every)) and not set(every) & played and rd.turn_up not in every
        for s, void in enumerate(obs.voids):
            assert not any(c < N_SUITED and c // N_RANKS in void for c in live[s])  # a void stays a void
        seen_hidden |= {c for s, h in enumerate(live) if s != seat - 1 for c in h}
        # the resampled round plays on by the same rules
        w.play("random")
        assert sum(w.tricks) == rd.r
    unseen = set(range(60)) - set(obs.hand) - played - {rd.turn_up}
    assert seen_hidden == unseen  # every card the seat has not seen turns up in some other hand


def test_phases_legal_actions_and_errors_name_the_action():
    seed = next(s for s in range(500) if Round(4, 3, seed=s).phase == "trump")  # a Wizard turned up
    rd = Round(4, 3, seed=seed, hook=True)
    assert (rd.current_player, rd.legal_actions(), rd.trump) == (4, [0, 1, 2, 3], None)
    assert rd.observation(4).legal == (0, 1, 2, 3) and rd.observation(1).legal == ()
    with pytest.raises(ValueError, match="the trump suit 7 is not legal for seat 4"):
        rd.apply(7)
    rd.apply(np.int64(2))
    assert rd.trump == 2 and rd.phase == "bid" and rd.current_player == 1
    with pytest.raises(ValueError, match="must be a whole number, got True"):
        rd.apply(True)
    with pytest.raises(ValueError, match="a bid 4 is not legal for seat 1"):
        rd.apply(4)
    for b in (1, 1, 0):
        rd.apply(b)
    assert 1 not in rd.legal_actions()  # the hook: the dealer may not make the bids add up to 3
    with pytest.raises(ValueError, match="a bid 1 is not legal for seat 4 now: legal are 0, 2, 3"):
        rd.apply(1)
    rd.apply(0)
    assert rd.phase == "card" and rd.current_player == 1
    hand = rd.observation(1).hand
    other = next(c for c in range(60) if c not in hand)
    with pytest.raises(ValueError, match=f"a card {wizsim.format_cards([other])} is not legal for seat 1"):
        rd.apply(other)
    rd.play("random")
    assert rd.phase == "over" and rd.current_player is None and rd.legal_actions() == []
    assert rd.scores() == tuple(score(b, t) for b, t in zip(rd.bids, rd.tricks, strict=True))
    with pytest.raises(ValueError, match="the round is over"):
        rd.apply(0)
    named = Round(4, 3, seed=seed, dealer_policy="heuristic")
    assert named.phase == "bid" and named.trump in range(4)


def test_given_hands_and_turn_up():
    rd = Round(3, 2, hands=["W,AS", "KS,2H", "J,3C"], turn_up="5D")
    assert rd.turn_up == int(parse_cards("5D")[0]) and rd.trump == 2
    assert rd.observation(2).hand == tuple(sorted(int(c) for c in parse_cards("KS,2H")))
    with pytest.raises(ConfigError, match=r"hands\[2\] must hold 2 cards"):
        Round(3, 2, hands=["W,AS", "KS", "J,3C"])
    with pytest.raises(ValueError, match="hands"):
        Round(3, 2, hands=["W,AS", "AS,2H", "J,3C"])
    with pytest.raises(ConfigError, match="none is turned up"):
        Round(3, 20, turn_up="5D")


class Lowest:
    """A user's player: the lowest legal action every time."""

    name = "lowest"

    def trump(self, obs):
        return min(obs.legal)

    def bid(self, obs):
        return min(obs.legal)

    def card(self, obs):
        assert obs.legal and set(obs.legal) <= set(obs.hand)
        return min(obs.legal)


def test_any_object_with_three_methods_sits_at_the_table():
    rd = Round(4, 8, seed=2)
    rd.play([Lowest(), "heuristic", player("random", seed=1), "heuristic"])
    assert rd.phase == "over" and rd.bids[0] == min(b for b in range(9))
    game = Game(3, seed=4)
    totals = game.play([Lowest(), "heuristic", "heuristic"])
    assert totals == game.scores() and len(totals) == 3


def test_an_unknown_policy_is_an_error_never_random():
    with pytest.raises(ConfigError, match="unknown policy 'mine'"):
        player("mine")
    with pytest.raises(ConfigError, match="unknown policy"):
        Round(4, 3, seed=0).play(["heuristic", "mine", "random", "random"])


def test_a_game_speaks_of_players_and_keeps_the_totals():
    game = Game(4, seed=9)
    dealer = game.first_dealer
    assert game.current_player == dealer % 4 + 1  # left of the dealer bids first
    obs = game.observation(game.current_player)
    assert obs.seat == 1 and obs.player == game.current_player and obs.game_round == 1 and obs.totals == (0,) * 4
    rng = np.random.default_rng(0)
    while game.round.r == 1:
        game.apply(rng.choice(game.legal_actions()))
    first = game.history[0]
    assert game.scores() == tuple(first.scores()[game.seat_of(p, 0) - 1] for p in range(1, 5))
    assert game.dealer() == dealer % 4 + 1
    assert game.observation(1).totals == tuple(game.scores()[game.player_at(s) - 1] for s in range(1, 5))


@settings(deadline=None, max_examples=25)
@given(players=st.integers(3, 6), data=st.data())
def test_any_legal_sequence_keeps_the_rules(players, data):
    r = data.draw(st.integers(1, 60 // players))
    rd = Round(players, r, seed=data.draw(st.integers(0, 2**32)), hook=data.draw(st.booleans()))
    held = sorted(c for h in rd.hands for c in h)
    while not rd.is_over:
        rd.apply(data.draw(st.sampled_from(rd.legal_actions())))
        assert sum(len(rd.observation(s).hand) for s in range(1, players + 1)) + len(rd.played) == players * r
    assert sorted(c for _, c in rd.played) == held
    assert sum(rd.tricks) == r and len(rd.trick_winners) == r
    if rd.hook:
        assert sum(rd.bids) != r
