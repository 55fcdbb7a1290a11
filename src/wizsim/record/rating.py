"""The review of a recorded game: every decision of ``me`` against the advisor's best choice.

``review(record, samples=REVIEW_SAMPLES, seed=0, policy=None, play=None, rounds=None) -> Review``. For
each round of the record where ``me``'s hand is known (given, or read off a complete ``played``):

- **trump**: when ``me`` deals and a Wizard is turned up (not in the last round), the suit named against
  ``advise_trump`` (each suit valued by its best bid's expected score);
- **bid**: ``me``'s bid against ``advise`` with the hand, the trump (and turned-up card), the bids made
  before ``me`` in that round, and the hook;
- **card**: each card ``me`` played where ``played`` is entered, against ``advise_play`` with the cards
  ``me`` still held and the cards played before it (what ``me`` knew then). A card that was the only
  legal one is no decision and is not rated.

What the table showed (``learn``, the default): every decision is asked, as the score sheet asks it, with
the opponents' model learned from the record's finished rounds before its round (``advisor.table_fit``:
each other player's play noise from the cards it chose), so the review judges a bid or a card by what the
game had shown by then; decisions with nothing learned (no earlier round with every card played, or
players who played the model's cards) are asked untold. A given ``policy`` is used as given throughout;
``learn=False`` asks every decision untold. ``Review.learned`` lists the rounds whose decisions used a
learned model.

Every decision is asked with the same ``seed`` and ``samples``, so its values are exactly those of
``advise``/``advise_play``/``advise_trump`` on that state (fixed samples also make the review the same
on every machine and every run; the advisors' default precision stops on the wall clock). The advisors
compare the choices on common deals, so ``loss = ev_best - ev_chosen`` gets a paired 95% interval: the
per-deal difference of the two choices' scores (weighted like the advice). A decision is lost only when
``loss_low > 0``; a choice other than the best whose interval includes 0 is a ``close_call``, not a
mistake. Exact answers (round 1's bid, enumerated play states) have no sampling error: their interval is
the loss itself.

How each player played (``"players"``, one entry per player of the record): what its finished rounds
showed against the model (``advisor.table_fit``): the cards it chose among two or more and how many were
the heuristic's, its play noise, its bids and how many were the heuristic's own, its bid shift and the
probability that it plays blind. The opponents' model takes the noise (``table_fit.MODELLED``).

The result (docs/game-record.md, "The review"): ``{"decisions": [...], "mean_loss", "decisions_rated",
"share_within_precision"}``, the decisions listed costliest first (highest ``loss``; ties in the order
of play), plus ``"decisions_skipped"``: the decisions the record lacks the information for (no hand
for that round), not rated (``Review.skipped``).

Each decision carries its ``"reasons"`` (``advisor.reasons``, read off that decision's own advice): for a
bid, each card's chance of taking a trick bidding the advised bid and the bid chosen; for a card, the
legal cards' figures and a line of play that sets the advised card against the one chosen (against the
runner-up when the choice was the advised one); for a trump, each suit's expected tricks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from wizsim._numba import Stopwatch
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, format_card, format_cards, format_trump
from wizsim.record.game import GameRecord, RecordError, RoundFacts
from wizsim.stats import Z95, json_float

# Deals (worlds) per decision. At 4 players and 15 rounds a review asks 15 bids and about 80 cards
# (the forced ones are not asked); this count reviews such a game in about 20 s on two cores.
REVIEW_SAMPLES = 1_000
PLAYER_FIELDS = ("player", "choices", "model_cards", "play_noise", "bids", "model_bids", "bid_shift", "blind")
DECISION_FIELDS = ("round", "kind", "chosen", "best", "ev_chosen", "ev_best", "loss", "loss_low", "loss_high",
                   "close_call", "reasons")


@dataclass
class Review:
    """The rated decisions (costliest first) and the per-game figures (see the module docstring)."""

    decisions: list[dict]
    skipped: int  # decisions of me the record cannot rate (no hand entered for the round)
    samples: int
    seed: int
    policy: str | None
    seconds: float = 0.0
    compile_seconds: float = 0.0  # compiling or loading kernels: left out of ``seconds``
    players: list[str] = field(default_factory=list)
    me: int = 0
    learned: dict = field(default_factory=dict)  # round number -> the opponents' model its decisions used
    table: list = field(default_factory=list)  # per player: what its finished rounds showed (PLAYER_FIELDS)

    @property
    def decisions_rated(self) -> int:
        return len(self.decisions)

    @property
    def mean_loss(self) -> float | None:
        return float(np.mean([d["loss"] for d in self.decisions])) if self.decisions else None

    @property
    def share_within_precision(self) -> float | None:
        if not self.decisions:
            return None
        return float(np.mean([not (d["loss_low"] is not None and d["loss_low"] > 0) for d in self.decisions]))

    @property
    def lost(self) -> list[dict]:
        """The decisions lost beyond the interval (``loss_low > 0``), costliest first."""
        return [d for d in self.decisions if d["loss_low"] is not None and d["loss_low"] > 0]

    def to_dict(self) -> dict:
        """The JSON object of ``--json`` (docs/guide/advisor.md)."""
        return {"decisions": [dict(d) for d in self.decisions], "mean_loss": json_float(self.mean_loss)
                if self.mean_loss is not None else None, "decisions_rated": self.decisions_rated,
                "share_within_precision": self.share_within_precision, "decisions_skipped": self.skipped,
                "learned": {str(r): names for r, names in self.learned.items()}, "players": [dict(x) for x in self.table]}


@dataclass(frozen=True)
class Task:
    """One decision to rate: its round, kind, order within the review and the advisor's arguments."""

    round: int
    kind: str
    order: int
    chosen: object
    call: str  # "advise", "advise_play", "advise_trump"
    args: tuple
    kwargs: dict


def _as_record(record) -> GameRecord:
    if isinstance(record, GameRecord):
        record.validate()
        return record
    if isinstance(record, (dict, bytes, bytearray)):
        return GameRecord.from_json(record)
    if isinstance(record, str):
        return GameRecord.from_json(record) if record.lstrip().startswith("{") else GameRecord.load(record)
    if isinstance(record, os.PathLike):
        return GameRecord.load(record)
    raise RecordError(f"record: a GameRecord, its JSON text or object, or a path, got {type(record).__name__}")


def _rounds_wanted(rounds, n_listed: int) -> set[int]:
    if rounds is None:
        return set(range(1, n_listed + 1))
    items = [rounds] if isinstance(rounds, int) and not isinstance(rounds, bool) else rounds
    try:
        wanted = set(items)
    except TypeError:
        raise RecordError(f"round: a round number or a list of them, got {rounds!r}") from None
    for r in wanted:
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not 1 <= r <= n_listed:
            raise RecordError(f"round: round numbers 1..{n_listed} (the rounds in the record), got {r!r}")
    return {int(r) for r in wanted}


def plan(record: GameRecord, common: dict, rounds=None, learned: dict | None = None) -> tuple[list[Task], int]:
    """The decisions of ``me`` to rate (in order of play) and the number the record cannot rate. With
    ``learned`` (a dict, filled here: round number -> names) a decision asked untold is asked with the
    opponents' model learned from the finished rounds before its round, where anything was learned."""
    from wizsim.advisor.table_fit import TablePlay, add_record_round
    from wizsim.rules.kernels import legal_mask
    from wizsim.rules.replay import order_of_play

    me = record.me
    if me is None:
        raise RecordError("me: the review rates the decisions of one player: give me (its index in players)")
    tasks: list[Task] = []
    skipped = 0
    wanted = _rounds_wanted(rounds, len(record.rounds))
    seen, fed = TablePlay(record.n_players), 0  # the finished rounds before round k, fed as k goes
    for k in range(len(record.rounds)):
        f: RoundFacts = record.facts(k)
        if f.r not in wanted:
            continue
        n = f.players
        seat = f.seat_of(me)
        turn_up = None if f.turn_up is None else format_card(f.turn_up)
        wizard = f.turn_up is not None and FIRST_WIZARD <= f.turn_up < FIRST_JESTER
        names_trump = wizard and seat == n
        mine = [pl for pl in f.plays if pl.player == me]
        if f.hand is None:
            skipped += 1 + int(names_trump) + len(mine)
            continue
        hand = format_cards(f.hand)
        told = common
        if learned is not None and common.get("policy") is None:
            while fed < k:
                add_record_round(seen, record, fed)
                fed += 1
            names = seen.policies(f.seat_player, seat - 1)
            if any(x != "heuristic" for x in names):
                learned[f.r] = names
                told = {**common, "policy": names}
        if names_trump:
            tasks.append(Task(f.r, "trump", len(tasks), format_trump(f.trump), "advise_trump", (hand, seat, n),
                              dict(hook=record.hook, **told)))
        tasks.append(Task(f.r, "bid", len(tasks), f.bids_by_seat[seat - 1], "advise",
                          (hand, format_trump(f.trump), seat, n),
                          dict(bids=list(f.bids_by_seat[: seat - 1]), hook=record.hook, trump_card=turn_up, **told)))
        held = list(f.hand)
        cards = [pl.card for pl in f.plays]
        leds = [t.led for t in order_of_play(cards, n, f.trump)]  # each card's lead (``rules.replay``)
        for pl in mine:
            led = leds[pl.position]
            mask = 0
            for c in held:
                mask |= 1 << c
            legal = int(legal_mask(np.uint64(mask), led))
            chosen = format_card(pl.card)
            # the card played leaves the hand (a Wizard or Jester: one of its kind)
            same = [c for c in held if format_card(c) == chosen]
            if bin(legal).count("1") > 1 and len({format_card(c) for c in held if legal >> c & 1}) > 1:
                prefix = "/".join(format_cards(cards[i:min(i + n, pl.position)]) for i in range(0, pl.position, n))
                tasks.append(Task(f.r, "card", len(tasks), chosen, "advise_play",
                                  (format_cards(held), format_trump(f.trump), seat, n),
                                  dict(bids=list(f.bids_by_seat), played=prefix, hook=record.hook, trump_card=turn_up,
                                       **told)))
            held.remove(same[0])
    return tasks, skipped


def _interval(scores, weights, best: int, chosen: int, loss: float, exact: bool) -> tuple[float, float]:
    """The paired 95% interval of ``loss``: the per-deal score difference of the two choices."""
    if exact or scores is None or best == chosen:
        return loss, loss
    from wizsim.advisor.sampling import weighted_mean_se

    _, se = weighted_mean_se((scores[:, best] - scores[:, chosen]).astype(np.float64), weights)
    return loss - Z95 * float(se), loss + Z95 * float(se)


def rate(task: Task) -> dict:
    """Ask the advisor about ``task``'s state and compare the chosen option with its best one."""
    import wizsim.advisor as advisor
    from wizsim.advisor.reasons import bid_comparison, play_reasons

    advice = getattr(advisor, task.call)(*task.args, explain=True, **task.kwargs)
    if task.kind == "bid":
        best, chosen = int(advice.best_bid), int(task.chosen)
        ev, best_shown, chosen_shown = advice.ev, best, chosen
        weights = advice.deal_weights
    elif task.kind == "trump":
        best = advice.best_index
        chosen = "SHDC".index(task.chosen)
        ev, best_shown, chosen_shown = advice.ev, advice.best_suit, task.chosen
        weights = None
    else:
        texts = [format_card(int(c)) for c in advice.cards]
        best = advice.best_index
        chosen = max((j for j, t in enumerate(texts) if t == task.chosen), key=lambda j: advice.ev[j])
        if texts[chosen] == texts[best]:
            chosen = best  # two Wizards (Jesters): the same choice
        ev, best_shown, chosen_shown = advice.ev, texts[best], task.chosen
        weights = advice.deal_weights
    loss = float(ev[best] - ev[chosen])
    low, high = _interval(advice.deal_scores, weights, best, chosen, loss, advice.method == "exact")
    if task.kind == "bid":  # the advised bid's per-card chances beside the chosen bid's
        reasons = bid_comparison(advice.reasons, chosen)
    elif task.kind == "card":  # a line of play: the advised card against the one chosen (else the runner-up)
        reasons = advice.reasons if chosen == best else play_reasons(advice, chosen)
    else:
        reasons = advice.reasons
    return {"round": task.round, "kind": task.kind, "chosen": chosen_shown, "best": best_shown,
            "ev_chosen": json_float(ev[chosen]), "ev_best": json_float(ev[best]), "loss": json_float(loss),
            "loss_low": json_float(low), "loss_high": json_float(high),
            "close_call": bool(chosen != best and not low > 0), "reasons": reasons}


def review(record, samples: int | None = None, seed: int | None = 0, policy=None, play=None, rounds=None,
           progress=None, learn: bool = True) -> Review:
    """Rate every decision of the record's ``me`` (see the module docstring). ``record``: a ``GameRecord``,
    its JSON text or parsed object, or a path to it. ``samples`` (default ``REVIEW_SAMPLES``) and ``seed``
    are every decision's; ``policy`` is the opponents' model and ``play`` the policy playing ``me``'s later
    cards, as for ``advise``; ``rounds``: a round number or a list of them (default: every round);
    ``progress(k, total)``: called after each decision rated, ``k`` the count just done; ``learn``: every
    decision asked with the opponents' model learned from the rounds before its round (the module
    docstring), where ``policy`` is not given."""
    from wizsim.advisor.question import check_policy_name, check_sampling
    from wizsim.config import check_flag, check_seed

    started = Stopwatch()
    check_flag(learn, "learn")
    rec = _as_record(record)
    samples = REVIEW_SAMPLES if samples is None else samples
    samples, _ = check_sampling(samples, None, "auto", ("auto",))
    seed = check_seed(seed)
    check_policy_name(play, "play", "heuristic")
    from wizsim.advisor.opponents import opponent_names

    opponent_names(policy, rec.n_players, 1)  # a bad name is refused before any decision, not at the first one
    common = dict(samples=samples, seed=seed, policy=policy, play=play)
    learned = {} if learn else None
    tasks, skipped = plan(rec, common, rounds, learned)
    rated = []
    for task in tasks:
        rated.append(rate(task))
        if progress is not None:
            progress(1, len(tasks))
    order = sorted(range(len(rated)), key=lambda i: (-(rated[i]["loss"] or 0.0), i))
    from wizsim.advisor.table_fit import learn_table

    seen = learn_table(rec)
    table = []
    for p, name in enumerate(rec.players):
        x = seen.player(p)
        table.append(dict(zip(PLAYER_FIELDS, (name, x.choices, x.model_cards, x.noise, x.bids, x.model_bids,
                                              x.bid_shift, x.blind), strict=True)))
    return Review([rated[i] for i in order], skipped, samples, seed, None if policy is None else str(policy),
                  started.seconds, started.compiled, list(rec.players), rec.me, learned or {}, table)
