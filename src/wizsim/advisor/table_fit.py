"""How the table has played so far: each player's play noise, bid shift and whether it plays blind,
learned from the game's finished rounds.

A finished round shows every card each player held, so each card a player chose can be set against the
card the model (the heuristic, or ``net`` where the fit is asked on it: ``LEARNABLE``) would have played in
its place (``policies.model.play_choices``). The advisor's opponents' model plays a seat's card at random
with probability ``play_noise`` and the model's card otherwise (``heuristic:play_noise``,
``net:play_noise``), so a card is the model's with probability
``1 - e + e / n`` among ``n`` legal cards and any other one with ``e / n``. Over the cards a player chose
(only real choices, ``n > 1``) that is a likelihood of ``e``; with a prior of mean ``DEFAULT_PLAY_NOISE``
(``Beta(1, 9)``: about ten cards' worth) its posterior mean is the player's noise. It never goes under
the default: cards that match the model's keep the advisor's default humility, which also stands for what
play cannot show (a player's bids). Measured in benchmarks/robustness.py ``--learn`` (docs/results.md, "Learning
the table"): heuristic seats keep 0.1, seats of ``search:worlds=8`` come out near 0.85 (they play the
heuristic's card 42% of the time), random seats near 1. On ``net:weights=search`` (the advisor's model of
strong players) the same seats read their cards against that network's.

Bids the same way: a finished round shows each player's whole hand, so each bid it made can be set
against the heuristic's bid for that hand, trump, seat and the bids before it, for every ``bid_shift``
on a grid (``SHIFT_GRID``, the registry's range). The likelihood is the opponents' model's own
(``policies.model.bids_likelihood`` at the default bid trust: the model's bid with most of the mass,
the others less the further off); with a prior N(0, 0.3) its posterior mean, rounded to 0.1, is the
player's shift; bids that shift 0 explains as well as any other keep 0 (a heuristic player's do), so a
table that bids like the model gets the untold answer.

And whether its bids tell anything: the heuristic's bids (with the prior on its shift integrated out)
against blind ones (every legal bid alike, as ``random`` bids). Their marginal likelihoods over the
player's bids, with the advisor's prior that a seat is blind (``DEFAULT_SEAT_DOUBT``), give the
probability that the player bids blind (``PlayerPlay.blind``); above one half ``name`` gives ``random``.

What the opponents' model takes of these is ``MODELLED``: the play noise only. The bid shift and the
blind probability are each player's figures (``TablePlay.player``) but measured no better as a model
(the comment at ``MODELLED``); ``PlayerPlay.name(used=...)`` and ``robustness.py --learn-what`` try them.
They are the heuristic's whatever the model (net has no bid shift), so a fit on net models the noise only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.advisor.opponents import DEFAULT_BID_TRUST, DEFAULT_PLAY_NOISE, DEFAULT_SEAT_DOUBT
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, shorten
from wizsim.config import MAX_PLAYERS, MIN_PLAYERS, check_count
from wizsim.policies import make_slots
from wizsim.policies.heuristic import P_BID_SHIFT
from wizsim.policies.model import MODEL_BLIND, MODEL_HEURISTIC, bids_likelihood, n_legal_bids, play_choices
from wizsim.policies.records import Opponents, RoundInfo
from wizsim.policies.registry import parse_policy
from wizsim.rules.kernels import forbidden_bid

# The figures the opponents' model takes from what the game showed; the others are reported only (measured
# with benchmarks/robustness.py --learn --learn-what against the noise alone, paired on the same questions:
# the bid shift moved nothing at the tables that bid shifted (heuristic:bid_shift=+-0.5, 1,200 questions
# each: observed - predicted -0.005 and -0.001, value -0.12 and -0.12 points a round) nor at
# search:worlds=8 (2,400 questions: -0.000 and +0.05); modelling a player seen as blind as random, judged
# by its bids alone, +0.21 [-0.25, +0.67] points a round at the random table and -0.15 [-0.51, +0.20] at the
# mixed one, 2,400 questions each (judged by its cards too, it took search players for blind: -0.52
# [-0.99, -0.04] at mixed).
MODELLED = ("noise",)
# The models a fit reads cards against (``TablePlay(model=...)``): one player's card, its noise learned on top.
# A temperature or a noise of its own would make the model's card a draw, not a choice to compare with.
LEARNABLE = ("heuristic", "net", "net:weights=search")
NOISE_GRID = np.linspace(0.0, 1.0, 201)
# Beta(1, 9) on the grid: mean 0.1 (the default), about ten cards' worth of evidence; with the trapezoid
# rule's half weights at the ends, so the posterior mean is the integral's to within 1e-4
_PRIOR = (1.0 - NOISE_GRID) ** 8 * np.where((NOISE_GRID == 0.0) | (NOISE_GRID == 1.0), 0.5, 1.0)
_PRIOR_LOG = np.log(np.maximum(_PRIOR, 1e-300))


SHIFT_GRID = np.round(np.linspace(-1.0, 1.0, 41), 2)  # the heuristic's bid_shift range, in steps of 0.05
SHIFT_PRIOR_SD = 0.3
_SHIFT_PRIOR_LOG = -0.5 * (SHIFT_GRID / SHIFT_PRIOR_SD) ** 2
_AT_ZERO = int(np.flatnonzero(SHIFT_GRID == 0.0)[0])
_SHIFT_PRIOR_WEIGHTS = np.exp(_SHIFT_PRIOR_LOG) / np.exp(_SHIFT_PRIOR_LOG).sum()


def bid_log_likelihoods(players: int, r: int, hook: bool, hands, turn_up: int, trump: int, bids) -> np.ndarray:
    """(players, len(SHIFT_GRID)): the log-likelihood of each seat's bid given its hand and the bids
    before it, under the heuristic with each ``bid_shift`` of the grid (the opponents' model at the
    default bid trust)."""
    from wizsim.policies import make_slots

    slots = make_slots(["heuristic"])
    params = np.tile(slots.params[0], (players, 1))
    hands = np.asarray(hands, np.uint64)
    bids = np.asarray(bids, np.int8)
    model_bids = np.zeros(players, np.int8)
    info = RoundInfo(players, r, bool(hook), int(turn_up), int(trump))
    out = np.zeros((players, len(SHIFT_GRID)))
    for s in range(players):
        kinds = np.full(players, MODEL_BLIND, np.int8)
        kinds[s] = MODEL_HEURISTIC
        for g, shift in enumerate(SHIFT_GRID):
            params[s, P_BID_SHIFT] = shift
            out[s, g] = np.log(bids_likelihood(Opponents(kinds, params, slots.table, DEFAULT_BID_TRUST, 0.0, DEFAULT_BID_TRUST, None), info,
                                               -1, hands, bids, players, model_bids))
    return out


def shift_posterior_mean(log_like: np.ndarray) -> float:
    """The posterior mean of a player's bid shift given its bids' summed log-likelihoods on the grid."""
    log_post = _SHIFT_PRIOR_LOG + log_like
    w = np.exp(log_post - log_post.max())
    return float((w * SHIFT_GRID).sum() / w.sum())


def _log_sum(log_terms: np.ndarray, weights: np.ndarray) -> float:
    """log(sum(weights * exp(log_terms)))."""
    top = log_terms.max()
    return float(top + np.log((weights * np.exp(log_terms - top)).sum()))


def _card_log_likelihoods(chose: np.ndarray, n_legal: np.ndarray) -> np.ndarray:
    """Per noise of the grid, the log-likelihood of the choices (``n_legal > 1`` only)."""
    chose = np.asarray(chose, np.float64)
    n = np.asarray(n_legal, np.float64)
    keep = n > 1
    chose, n = chose[keep], n[keep]
    e = NOISE_GRID[:, None]
    p = np.where(chose[None, :] > 0, 1.0 - e + e / n[None, :], e / n[None, :])
    return np.log(np.maximum(p, 1e-300)).sum(axis=1)


def blind_posterior(bid_log_like: np.ndarray, n_bid_choices: float) -> float:
    """P(the player bids blind | its bids): the heuristic's marginal likelihood (its shift's prior integrated
    out; ``bid_log_like`` on ``SHIFT_GRID``) against every legal bid alike (``n_bid_choices``: the sum of
    log(legal bids) over its bids), with prior ``DEFAULT_SEAT_DOUBT``. Bids only: a strong player's cards
    leave the heuristic's as often as a random one's (``search:worlds=8`` plays it 42% of the time), but
    its bids still tell; the cards' departure is the play noise."""
    model = _log_sum(bid_log_like, _SHIFT_PRIOR_WEIGHTS)
    odds = np.log(DEFAULT_SEAT_DOUBT / (1.0 - DEFAULT_SEAT_DOUBT)) - n_bid_choices - model
    return float(1.0 / (1.0 + np.exp(-odds))) if odds < 700 else 1.0


def noise_posterior_mean(chose: np.ndarray, n_legal: np.ndarray) -> float:
    """The posterior mean of the play noise ``e`` given, per card chosen among ``n_legal > 1`` cards,
    whether it was the model's card (``chose``), under the Beta(1, 9) prior."""
    log_post = _PRIOR_LOG + _card_log_likelihoods(chose, n_legal)
    w = np.exp(log_post - log_post.max())
    return float((w * NOISE_GRID).sum() / w.sum())


@dataclass
class PlayerPlay:
    """What one player's cards in the finished rounds showed."""

    choices: int = 0  # cards chosen among two or more legal ones
    model_cards: int = 0  # of those, the model's card in its place
    noise: float = DEFAULT_PLAY_NOISE  # the play noise the advisor models it with (never under the default)
    bids: int = 0  # bids made with a hand the record shows
    model_bids: int = 0  # of those, the heuristic's own bid (no shift)
    bid_shift: float = 0.0  # the heuristic's bid_shift the advisor models it with
    blind: float = DEFAULT_SEAT_DOUBT  # the probability that it bids and plays blind (then: ``random``)
    model: str = "heuristic"  # what its cards were read against (``LEARNABLE``)

    def name(self, used=None) -> str:
        """The policy name of this model (the model itself, e.g. ``heuristic``, where every figure is the
        default), from the figures in ``used`` (default ``MODELLED``); a bid shift only on the heuristic."""
        used = MODELLED if used is None else used
        if "blind" in used and self.blind > 0.5:
            return "random"
        shift = self.bid_shift and "bid_shift" in used and self.model == "heuristic"
        parts = [f"bid_shift={self.bid_shift!r}"] if shift else []
        parts += [f"play_noise={self.noise!r}"] if self.noise > DEFAULT_PLAY_NOISE and "noise" in used else []
        return parse_policy(":".join([self.model, *parts])).name


def learnable_model(model: str) -> str:
    """``model``'s canonical name where a table fit can read cards against it (``LEARNABLE``), else a
    ``ValueError`` in one line."""
    try:
        name = parse_policy(model).name
    except (TypeError, ValueError):
        name = None
    if name not in LEARNABLE:
        raise ValueError(f"the table's play is learned on one of {', '.join(LEARNABLE)} (its noise learned on "
                         f"top), got {shorten(repr(model), 40)}")
    return name


class TablePlay:
    """Each player's play so far (index: the player, in the game's seating order), fed round by round, its
    cards read against ``model`` (``LEARNABLE``)."""

    def __init__(self, n_players: int, model: str = "heuristic"):
        self.n_players = n_players
        self.model = learnable_model(model)
        self._net = True if parse_policy(self.model).entry.name == "net" else None
        self._table = make_slots([self.model]).table
        self._chose: list[list[int]] = [[] for _ in range(n_players)]
        self._legal: list[list[int]] = [[] for _ in range(n_players)]
        self._bid_like = np.zeros((n_players, len(SHIFT_GRID)))
        self._bids = np.zeros(n_players, np.int64)
        self._model_bids = np.zeros(n_players, np.int64)
        self._bid_choices = np.zeros(n_players)  # sum of log(legal bids) over each player's bids

    def add_round(self, seat_player, r: int, hands, turn_up: int, trump: int, bids, order, hook: bool = False) -> None:
        """One finished round: ``hands`` (players,) masks as dealt, ``bids`` by seat, ``order`` the cards in
        order of play (seat 1 leads), ``seat_player`` the player at each seat (0-based), ``hook`` the game's."""
        players = len(seat_player)
        like = bid_log_likelihoods(players, r, hook, hands, turn_up, trump, bids)
        for seat in range(players):
            player = seat_player[seat]
            self._bid_like[player] += like[seat]
            self._bids[player] += 1
            # the model's own bid is the likeliest one: its likelihood is the grid's highest at shift 0
            self._model_bids[player] += int(like[seat, _AT_ZERO] >= like[seat].max() - 1e-12)
            forbidden = forbidden_bid(bool(hook), seat, players, r, int(np.sum(np.asarray(bids[:seat], np.int64))))
            self._bid_choices[player] += np.log(n_legal_bids(r, forbidden))
        n_played = len(order)
        out = np.zeros((max(n_played, 1), 3), np.int64)
        play_choices(RoundInfo(players, r, bool(hook), int(turn_up), int(trump)), np.asarray(hands, np.uint64).copy(),
                     np.asarray(bids, np.int8), np.asarray(order if n_played else [0], np.int8), n_played, out,
                     self._net, self._table)
        for seat, chose, n in out[:n_played].tolist():
            if n > 1:
                player = seat_player[seat]
                self._chose[player].append(chose)
                self._legal[player].append(n)

    def player(self, p: int) -> PlayerPlay:
        chose, legal = self._chose[p], self._legal[p]
        like = self._bid_like[p]
        # bids that shift 0 explains as well as any shift keep the model's own (as cards keep the default noise)
        shift = 0.0 if like[_AT_ZERO] >= like.max() - 1e-9 else round(shift_posterior_mean(like), 1) + 0.0
        blind = blind_posterior(like, self._bid_choices[p]) if self._bids[p] else DEFAULT_SEAT_DOUBT
        bids = (int(self._bids[p]), int(self._model_bids[p]), shift, round(blind, 4), self.model)
        if not chose:
            return PlayerPlay(0, 0, DEFAULT_PLAY_NOISE, *bids)
        noise = max(DEFAULT_PLAY_NOISE, noise_posterior_mean(np.array(chose), np.array(legal)))
        return PlayerPlay(len(chose), int(sum(chose)), round(noise, 2), *bids)

    def policies(self, seat_player, me_seat: int) -> list[str]:
        """The opponents' model for a round seated as ``seat_player``, one name per seat other than
        ``me_seat`` (0-based) in seat order, for ``advise(policy=...)``: each player's ``name`` from the
        ``MODELLED`` figures (the plain model, e.g. ``heuristic``, where they are the defaults, so the answer
        is the one told the model alone)."""
        return [self.player(p).name() for seat, p in enumerate(seat_player) if seat != me_seat]


def distinct_ids(cards) -> list[int]:
    """A round's cards with Wizards and Jesters recorded as the first id of their kind made distinct (the
    k-th Wizard in order becomes the k-th Wizard id): the replay holds hands as sets of ids."""
    out, wizards, jesters = [], 0, 0
    for c in cards:
        c = int(c)
        if FIRST_WIZARD <= c < FIRST_JESTER:
            c = FIRST_WIZARD + wizards
            wizards += 1
        elif c >= FIRST_JESTER:
            c = FIRST_JESTER + jesters
            jesters += 1
        out.append(c)
    return out


def _check_record(record) -> None:
    """A ``GameRecord`` (known by what it offers: the advisor sits below the record module), else a
    ``TypeError`` naming the argument."""
    if isinstance(record, type) or not all(hasattr(record, a) for a in ("rounds", "facts", "seat_players", "n_players")):
        raise TypeError(f"record must be a wizsim.GameRecord (GameRecord.load(path) reads one), got "
                        f"{shorten(repr(record), 40)} ({type(record).__name__})")


def learn_table(record, before: int | None = None, model: str = "heuristic") -> TablePlay:
    """Each player's play in the finished rounds of a game record (those with every card in ``played``)
    before round index ``before`` (default: all of them), read against ``model`` (``LEARNABLE``)."""
    _check_record(record)
    if before is not None:
        before = check_count(before, "before", 0, None)
    table = TablePlay(record.n_players, model)
    last = len(record.rounds) if before is None else min(before, len(record.rounds))
    for k in range(last):
        add_record_round(table, record, k)
    return table


def add_record_round(table: TablePlay, record, k: int) -> None:
    """Feed ``table`` round index ``k`` of a game record, if it is finished (every card in ``played``); the
    review feeds its rounds one by one as it goes (``learn_table`` from scratch per round is quadratic)."""
    n = record.n_players
    f = record.facts(k)
    if f.complete:
        order = distinct_ids([p.card for p in f.plays])
        hands = np.zeros(n, np.uint64)
        for p, card in zip(f.plays, order, strict=True):
            hands[p.seat] |= np.uint64(1) << np.uint64(card)
        turn_up = -1 if f.turn_up is None else int(f.turn_up)
        if turn_up >= FIRST_WIZARD:  # its id must differ from the played Wizards' and Jesters'
            kind = [c for c in order if (c >= FIRST_JESTER) == (turn_up >= FIRST_JESTER) and c >= FIRST_WIZARD]
            turn_up = (FIRST_JESTER if turn_up >= FIRST_JESTER else FIRST_WIZARD) + len(kind)
        table.add_round(f.seat_player, f.r, hands, turn_up, f.trump, f.bids_by_seat, order, record.hook)


def question_round(record) -> int:
    """The round index a question about the game now is in: the last round listed while its tricks are
    not in yet, else the next one."""
    rounds = record.rounds
    if rounds and rounds[-1].tricks is None:
        return len(rounds) - 1
    return len(rounds)


def learned_policy(record, seat: int, players: int, r: int | None = None, model: str = "heuristic") -> list[str] | None:
    """The opponents' model learned from a game record's finished rounds for a question in seat ``seat``
    (1-based) of the round in progress (``question_round``), one name per other seat in seat order, each
    player's cards read against ``model`` (``LEARNABLE``); None where every player keeps the default (the
    answer told ``model`` alone). Raises ``AdviceError`` when the question does not fit the record (another
    player count, round size, or ``me``'s seat) or ``model`` is not one a fit reads cards against."""
    from wizsim.advisor.question import AdviceError

    _check_record(record)
    try:
        model = learnable_model(model)
    except ValueError as err:
        raise AdviceError(f"policy: {err}") from None
    players = check_count(players, "players", MIN_PLAYERS, MAX_PLAYERS, error=AdviceError)
    seat = check_count(seat, "seat", 1, players, error=AdviceError)
    if r is not None:
        r = check_count(r, "r", 1, None, error=AdviceError)
    k = question_round(record)
    if record.n_players != players:
        raise AdviceError(f"game: the record has {record.n_players} players, the question {players}")
    if k >= record.n_rounds:
        raise AdviceError(f"game: the record's {record.n_rounds} rounds are all played")
    if r is not None and r != k + 1:
        raise AdviceError(f"game: the round in progress is round {k + 1} ({k + 1} cards), the question has {r}")
    seat_player = record.seat_players(k)
    if record.me is not None and seat_player[seat - 1] != record.me:
        raise AdviceError(f"game: {record.players[record.me]} sits in seat {seat_player.index(record.me) + 1} of "
                          f"round {k + 1}, the question asks for seat {seat}")
    names = learn_table(record, k, model).policies(seat_player, seat - 1)
    return None if all(n == model for n in names) else names
