"""The table's play learned from a game's finished rounds (``advisor.table_fit``, ``advise --game``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import wizsim
from wizsim.advisor.opponents import DEFAULT_PLAY_NOISE
from wizsim.advisor.question import AdviceError
from wizsim.advisor.table_fit import (
    SHIFT_GRID,
    bid_log_likelihoods,
    blind_posterior,
    distinct_ids,
    learn_table,
    learned_policy,
    noise_posterior_mean,
    question_round,
    shift_posterior_mean,
)
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD
from wizsim.cli import main
from wizsim.policies.registry import check_policy
from wizsim.record import from_games

SEATS = ["heuristic", "random", "heuristic", "heuristic:bid_shift=0.5"]


@pytest.fixture(scope="module")
def game():
    """A whole 4-player game with every card played: three heuristic players (one bidding high) and one random."""
    batch = wizsim.simulate_games(4, 1, SEATS, seed=7, trick_log=True)
    return from_games(batch, game=0, me=0)


def test_noise_posterior_is_the_exact_beta_posterior_on_one_card():
    # prior Beta(1, 9), one choice between 2 cards: not the model's card -> likelihood e / 2 -> Beta(2, 9)
    assert noise_posterior_mean(np.array([0]), np.array([2])) == pytest.approx(2 / 11, abs=1e-4)
    # the model's card -> likelihood 1 - e / 2: mean (B(2,9) - B(3,9) / 2) / (B(1,9) - B(2,9) / 2) = 180 / 1881
    assert noise_posterior_mean(np.array([1]), np.array([2])) == pytest.approx(180 / 1881, abs=1e-4)


def test_noise_posterior_without_choices_is_the_prior_and_forced_cards_tell_nothing():
    assert noise_posterior_mean(np.array([], int), np.array([], int)) == pytest.approx(0.1, abs=1e-4)
    assert noise_posterior_mean(np.array([0, 0, 0]), np.array([1, 1, 1])) == pytest.approx(0.1, abs=1e-4)


def test_noise_posterior_moves_with_the_evidence():
    n = np.full(60, 3)
    model_like = noise_posterior_mean(np.ones(60), n)
    half = noise_posterior_mean(np.arange(60) % 2, n)
    random_like = noise_posterior_mean((np.arange(60) % 3 == 0).astype(int), n)
    assert model_like < 0.03 < half < random_like
    assert random_like > 0.7


def test_bid_likelihoods_are_the_twins_product_seat_by_seat_on_random_rounds():
    from wizsim.policies import make_slots
    from wizsim.policies.heuristic import P_BID_SHIFT
    from wizsim.policies.model import MODEL_BLIND, MODEL_HEURISTIC
    from wizsim.policies.records import Opponents, RoundInfo
    from wizsim.policies.reference import bids_likelihood as twin

    slots = make_slots(["heuristic"])
    rng = np.random.default_rng(5)
    for players, r, hook in ((3, 4, False), (4, 6, True), (5, 2, True)):
        batch = wizsim.simulate_rounds(players, r, 1, "random", seed=int(rng.integers(1000)), hook=hook)
        hands, bids = batch.hands[0], batch.bids[0]
        got = bid_log_likelihoods(players, r, hook, hands, int(batch.turn_up[0]), int(batch.trump[0]), bids)
        for s in range(players):
            kinds = np.full(players, MODEL_BLIND, np.int8)
            kinds[s] = MODEL_HEURISTIC
            for g in (0, 10, 20, 33, 40):
                params = np.tile(slots.params[0], (players, 1))
                params[s, P_BID_SHIFT] = SHIFT_GRID[g]
                like, _ = twin(Opponents(kinds, params, slots.table, 0.7, 0.0, 0.7),
                               RoundInfo(players, r, hook, int(batch.turn_up[0]), int(batch.trump[0])), -1,
                               [int(h) for h in hands], [int(b) for b in bids], players)
                assert got[s, g] == pytest.approx(np.log(like), abs=1e-9)


def test_shift_posterior_is_the_prior_without_evidence_and_follows_it():
    assert shift_posterior_mean(np.zeros(len(SHIFT_GRID))) == pytest.approx(0.0, abs=1e-12)
    # evidence that rules out every shift under 0.5: the prior's tail beyond it, on the grid
    cut = np.where(SHIFT_GRID >= 0.5, 0.0, -np.inf)
    w = np.exp(-0.5 * (SHIFT_GRID / 0.3) ** 2) * (SHIFT_GRID >= 0.5)
    assert shift_posterior_mean(cut) == pytest.approx((w * SHIFT_GRID).sum() / w.sum(), abs=1e-12)
    assert 0.5 < shift_posterior_mean(cut) < 0.7


def test_blind_posterior_is_exact_on_small_cases():
    # bids as likely under every shift as under blind bidding: the prior, the seat doubt
    flat = np.full(len(SHIFT_GRID), np.log(1 / 4))
    assert blind_posterior(flat, np.log(4)) == pytest.approx(0.15, abs=1e-12)
    # one bid among 4 that the model makes (weight 1 / (1 + 0.3 + 0.09 + 0.027)) for shifts >= 0 only and
    # one step off (0.3 of that) below: P(bid | model) is the prior-weighted mean of the two
    top = 1 / (1 + 0.3 + 0.09 + 0.027)
    like = np.log(np.where(SHIFT_GRID >= 0, top, 0.3 * top))
    w = np.exp(-0.5 * (SHIFT_GRID / 0.3) ** 2)
    model = float((w * np.exp(like)).sum() / w.sum())
    want = 0.15 * 0.25 / (0.15 * 0.25 + 0.85 * model)
    assert blind_posterior(like, np.log(4)) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_games_bids_show_each_players_shift(seed):
    seats = ["heuristic", "heuristic:bid_shift=-0.5", "heuristic:bid_shift=0.5", "random"]
    table = learn_table(from_games(wizsim.simulate_games(4, 1, seats, seed=seed, trick_log=True), game=0, me=0))
    seen = [table.player(p) for p in range(4)]
    assert all(x.bids == 15 for x in seen)
    # the heuristic's every bid is the model's own: it keeps shift 0 (and the untold name)
    assert seen[0].model_bids == 15 and seen[0].bid_shift == 0.0 and seen[0].name() == "heuristic"
    assert -0.7 <= seen[1].bid_shift <= -0.3 and 0.3 <= seen[2].bid_shift <= 0.7
    assert seen[1].model_bids < 15 and seen[2].model_bids < 15
    assert seen[2].name(("bid_shift",)) == f"heuristic:bid_shift={seen[2].bid_shift!r}"
    assert seen[2].name() == "heuristic"  # the model takes the noise only (table_fit.MODELLED)
    # the random player's bids and cards: blind, the heuristic players' not
    assert seen[3].blind > 0.99 and seen[3].name(("blind",)) == "random"
    assert max(x.blind for x in seen[:3]) < 0.01


def test_distinct_ids_numbers_wizards_and_jesters_in_order_of_play():
    w, j = FIRST_WIZARD, FIRST_JESTER
    assert distinct_ids([w, 3, j, w, j, w]) == [w, 3, j, w + 1, j + 1, w + 2]


def test_a_whole_game_shows_the_heuristic_players_as_the_model_and_the_random_one_not(game):
    table = learn_table(game)
    for p, name in enumerate(SEATS):
        seen = table.player(p)
        assert seen.choices > 60
        if name.startswith("heuristic"):
            # every card the heuristic chose is the model's own (Wizards and Jesters renumbered, every
            # trick's leader and the voids followed): the replay is the round kernel's
            assert seen.model_cards == seen.choices
            assert seen.noise == DEFAULT_PLAY_NOISE
        else:
            assert seen.model_cards < 0.5 * seen.choices
            assert seen.noise > 0.6


def test_rounds_before_a_round_only_and_unfinished_rounds_are_skipped(game):
    assert learn_table(game, 0).player(1).choices == 0
    early, late = learn_table(game, 4).player(1), learn_table(game, 12).player(1)
    assert 0 < early.choices < late.choices
    d = game.to_dict()
    del d["rounds"][5]["played"]
    assert learn_table(wizsim.GameRecord.from_dict(d), 12).player(1).choices < late.choices


def test_fed_round_by_round_the_table_learns_what_it_learns_from_scratch(game):
    """The review feeds the rounds one at a time (``add_record_round``): after each, every player reads as
    ``learn_table`` from scratch reads it."""
    from wizsim.advisor.table_fit import TablePlay, add_record_round

    fed = TablePlay(game.n_players)
    for k in range(len(game.rounds)):
        add_record_round(fed, game, k)
        scratch = learn_table(game, k + 1)
        assert [fed.player(p) for p in range(4)] == [scratch.player(p) for p in range(4)]
    assert fed.player(1).choices > 0


def _cut(game, rounds: int, drop_tricks: bool = False):
    d = game.to_dict()
    d["rounds"] = d["rounds"][:rounds]
    if drop_tricks:
        d["rounds"][-1]["tricks"] = None
        d["rounds"][-1].pop("played", None)
    return wizsim.GameRecord.from_dict(d)


def test_learned_policy_seats_each_player_as_in_the_round_in_progress(game):
    rec = _cut(game, 9)
    k = question_round(rec)
    assert k == 9 and question_round(_cut(game, 9, drop_tricks=True)) == 8
    seats = rec.seat_players(k)
    me_seat = seats.index(0) + 1
    names = learned_policy(rec, me_seat, 4, r=k + 1)
    others = [p for p in seats if p != 0]
    table = learn_table(rec)
    want = {0: "heuristic", 1: f"heuristic:play_noise={table.player(1).noise!r}", 2: "heuristic", 3: "heuristic"}
    assert names == [want[p] for p in others]
    # the high bidder's shift and the random player's blindness are its figures, not (by default) the model's
    assert table.player(3).bid_shift > 0 and table.player(1).blind > 0.9
    full = ("noise", "bid_shift", "blind")
    assert table.player(1).name(full) == "random"
    assert table.player(3).name(full) == f"heuristic:bid_shift={table.player(3).bid_shift!r}"


def test_learned_policy_is_none_at_a_table_of_the_model():
    batch = wizsim.simulate_games(4, 1, "heuristic", seed=3, trick_log=True)
    rec = _cut(from_games(batch, game=0, me=2), 6)
    seat = rec.seat_players(6).index(2) + 1
    assert learned_policy(rec, seat, 4, r=7) is None


def test_learned_policy_refuses_a_question_that_does_not_fit_the_record(game):
    rec = _cut(game, 9)
    seat = rec.seat_players(9).index(0) + 1
    with pytest.raises(AdviceError, match="the question has 3"):
        learned_policy(rec, seat, 4, r=3)
    with pytest.raises(AdviceError, match="players"):
        learned_policy(rec, seat, 5, r=10)
    with pytest.raises(AdviceError, match="sits in seat"):
        learned_policy(rec, seat % 4 + 1, 4, r=10)
    with pytest.raises(AdviceError, match="all played"):
        learned_policy(game, seat, 4)


def test_cli_advise_game_uses_the_learned_model_and_refuses_a_second_one(game, tmp_path):
    rec = _cut(game, 9)
    path = tmp_path / "game.json"
    rec.save(path)
    seat = rec.seat_players(9).index(0) + 1
    hand = "W,AS,3H,4H,5C,6C,7D,8D,9S,TS"
    bids = [] if seat == 1 else ["--bids", ",".join(["1"] * (seat - 1))]
    args = ["advise", "--hand", hand, "--trump", "S", "--seat", str(seat), "--seed", "1", "--samples", "200",
            "--game", str(path), *bids, "--json"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["policy"].split(",") == learned_policy(rec, seat, 4, r=10)
    assert "heuristic:play_noise=0." in json.loads(out.output)["policy"]
    again = CliRunner().invoke(main, [*args, "--policy", "random"])
    assert again.exit_code == 2 and "--game --policy: the table's play is learned on one of" in again.output
    noisy = CliRunner().invoke(main, [*args, "--play-noise", "0.2"])
    assert noisy.exit_code == 2 and "leave out --play-noise" in noisy.output
    on_net = CliRunner().invoke(main, [*args, "--policy", "net:weights=search"])  # each card read against net's
    assert on_net.exit_code == 0, on_net.output
    names = learned_policy(rec, seat, 4, r=10, model="net:weights=search")
    assert names is not None and any("net:play_noise=" in n for n in names)
    assert json.loads(on_net.output)["policy"].split(",") == names
    wrong = CliRunner().invoke(main, [*args[:-1], "--hand", "W,AS,3H"])
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output


def test_cli_play_advice_with_the_game_uses_the_learned_model(game, tmp_path):
    """Play advice asked with the game models the others as the game has shown them, as bid advice does:
    the answer is ``advise_play`` told the learned policy."""
    rec = _cut(game, 9)
    path = tmp_path / "game.json"
    rec.save(path)
    seat = rec.seat_players(9).index(0) + 1
    names = learned_policy(rec, seat, 4, r=10)
    assert names is not None
    # trick 1: seat 1 leads, my Wizard wins it, and I lead trick 2 with 9 cards left of 10
    hand = "AS,3H,4H,5C,6C,7D,8D,9S,TS"
    first = ["2C", "3C", "4C", "KC"]
    first[seat - 1] = "W"
    played = ",".join(first) + "/"
    args = ["advise", "--hand", hand, "--trump", "S", "--seat", str(seat), "--bids", "1,2,1,3", "--played", played,
            "--seed", "1", "--samples", "200", "--game", str(path), "--json"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["phase"] == "play" and got["policy"].split(",") == names
    want = wizsim.advise_play(hand, "S", seat, bids=[1, 2, 1, 3], played=played, samples=200, seed=1, policy=names)
    assert got["table"] == want.to_dict()["table"]
    untold = wizsim.advise_play(hand, "S", seat, bids=[1, 2, 1, 3], played=played, samples=200, seed=1)
    assert got["table"] != untold.to_dict()["table"]  # the game told it something
    # a bad question says what is wrong with it, not that it does not fit the game
    bad = CliRunner().invoke(main, [*args[:-1], "--played", "ZZ"])
    assert bad.exit_code == 2 and "played" in bad.output and "game" not in bad.output, bad.output
    later = CliRunner().invoke(main, [*args[:-1], "--played", played + "QS,2H,4D,5D/"])  # I led trick 2 too
    assert later.exit_code == 2 and "round 10 (10 cards), the question has 11" in later.output, later.output


def test_api_advise_with_the_game_is_the_cli_answer_and_refuses_a_second_model(game):
    from fastapi.testclient import TestClient

    from wizsim.web.app import create_app

    rec = _cut(game, 9)
    seat = rec.seat_players(9).index(0) + 1
    hand = "W,AS,3H,4H,5C,6C,7D,8D,9S,TS"
    body = {"hand": hand, "trump": "S", "seat": seat, "bids": [1] * (seat - 1), "samples": 200, "seed": 1,
            "game": rec.to_dict()}
    with TestClient(create_app(workers=1), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        res = client.post("/api/advise", json=body)
        assert res.status_code == 200, res.text
        names = learned_policy(rec, seat, 4, r=10)
        want = wizsim.advise(hand, "S", seat, bids=[1] * (seat - 1), samples=200, seed=1, policy=names)
        assert res.json() == {**want.to_dict(), "p_tricks": want.p_tricks.tolist()}
        on_net = client.post("/api/advise", json={**body, "policy": "net:weights=search"})
        assert on_net.status_code == 200, on_net.text
        names = learned_policy(rec, seat, 4, r=10, model="net:weights=search") or "net:weights=search"
        assert on_net.json()["policy"] == (names if isinstance(names, str) else ",".join(names))
        for extra, needle in (({"policy": "random"}, "policy: the table's play is learned on one of"),
                              ({"play_noise": 0.2}, "leave out play_noise"), ({"hand": "W,AS,3H"}, "the question has 3"),
                              ({"bids": [1, 0, 1, 0], "hand": "AS,2S,3H,4H,5C,6C,7D,8D,9S,TS",  # my Wizard won trick 1
                               "played": ",".join(["W" if s == seat else c for s, c in enumerate(["2C", "3C", "4C", "KC"], 1)]) + "/"},
                              "the question has 11"),
                              ({"game": {"players": ["A"]}}, "game.first_dealer")):
            bad = client.post("/api/advise", json={**body, **extra})
            assert bad.status_code == 422, bad.text
            assert needle in bad.json()["detail"] and "\n" not in bad.json()["detail"]


@pytest.mark.parametrize("model", ["net", "net:weights=search"])
def test_a_fit_on_net_reads_cards_against_the_network(model):
    """Asked on a net model, a table of that net keeps the model (every card its own: the answer told the
    model alone); heuristic players' cards, read against the network's, show a noise above the default, and
    a random player's more; the names are the model's own with the noise on top."""
    seats = [model, "heuristic", model, "random"]
    batch = wizsim.simulate_games(4, 1, seats, seed=5, trick_log=True)
    rec = _cut(from_games(batch, game=0, me=0), 8)
    table = learn_table(rec, model=model)
    assert table.player(0).model_cards == table.player(0).choices > 20
    assert table.player(2).noise == DEFAULT_PLAY_NOISE
    heuristic, random_ = table.player(1), table.player(3)
    assert heuristic.model_cards < heuristic.choices and DEFAULT_PLAY_NOISE < heuristic.noise < random_.noise
    assert heuristic.name() == check_policy(f"{model}:play_noise={heuristic.noise!r}")
    seat = rec.seat_players(8).index(0) + 1
    names = learned_policy(rec, seat, 4, r=9, model=model)
    others = [p for p in rec.seat_players(8) if p != 0]
    assert names == [table.player(p).name() for p in others]
    # the same table read against the heuristic: the net players' cards are not all its own
    assert learn_table(rec).player(2).model_cards < table.player(2).model_cards
    only_net = _cut(from_games(wizsim.simulate_games(4, 1, model, seed=5, trick_log=True), game=0, me=0), 8)
    assert learned_policy(only_net, only_net.seat_players(8).index(0) + 1, 4, model=model) is None


def test_a_fit_refuses_a_model_it_cannot_read_cards_against(game):
    rec = _cut(game, 9)
    seat = rec.seat_players(9).index(0) + 1
    for model in ("random", "net:temperature=0.5", "heuristic:play_noise=0.2", "net,heuristic,net"):
        with pytest.raises(AdviceError, match="the table's play is learned on one of heuristic, net"):
            learned_policy(rec, seat, 4, r=10, model=model)
    with pytest.raises(ValueError, match="learned on one of"):
        learn_table(rec, model="search:worlds=8")
