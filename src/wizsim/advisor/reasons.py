"""Reasons: where an answer's numbers come from, in figures and in one line a player reads (``explain=True``).

Every figure here is read off the simulation that made the advice (the same deals, the same seed and
weights), never a second one:

- **bid** (``bid_reasons``): each card of the hand's chance of taking a trick, for every bid, read off the
  trick logs of the advice's own deals (``advisor.kernels.candidate_rounds``'s ``won``: which of the player's cards won a
  trick on each deal). On every deal the cards that took a trick are the tricks taken, so for each bid
  the chances add up to that bid's expected tricks (exactly, not just within the Monte Carlo error);
  round 1's exact answer has one card, whose chance is the chance of taking the trick. The bids' trick
  distributions (``p_tricks``) are restated.
- **card** (``explain_play``, ``play_reasons``): each legal card's expected tricks, chance of making the
  bid and expected score (the advice table's figures), and one line of play that shows the difference
  between the advised card and another (the runner-up in a hint, the card chosen in the review). The
  deals where the two cards end the round with different tricks are grouped by the pair of trick counts;
  among those where the advised card scores more (any, when there are none) the pair met on the most
  weight is taken, and its first deal is played out again with both cards, the trick log kept
  (``advisor.kernels.playouts``'s ``logs``: the same world, the same play stream, so the same play-out). The line
  names the first trick the player wins with one card and not with the other, and how each ends.
- **trump** (``trump_reasons``): each suit's expected tricks at its best bid and, for the best suit, each
  card's chance of taking a trick there.

``reasons`` is a JSON-ready dict; ``"text"`` is the line the command line prints under "Why:".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.cards import format_card, format_cards, mask_to_cards
from wizsim.stats import json_float

WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def check_explain(value) -> bool:
    """``explain`` as a bool (only True or False), else the advisor's one-line error."""
    from wizsim.advisor.question import AdviceError
    from wizsim.config import check_flag

    return check_flag(value, "explain", error=AdviceError)


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def card_chances(won: np.ndarray, weights: np.ndarray | None, cards) -> np.ndarray:
    """(choices, cards): the weighted share of deals on which each card took a trick, per choice (a bid, or
    a suit's best bid); ``won`` (n, choices) uint64 bit masks of the cards that did."""
    n = won.shape[0]
    w = np.ones(n) if weights is None else np.asarray(weights, np.float64)
    total = w.sum()
    out = np.zeros((won.shape[1], len(cards)))
    for j, c in enumerate(cards):
        took = (won >> np.uint64(int(c))) & np.uint64(1)
        out[:, j] = (w[:, None] * took).sum(axis=0) / total if total > 0 else 0.0
    return out


def _cards_line(cards, chances) -> str:
    return ", ".join(f"{format_card(c)} {_pct(p)}" for c, p in zip(cards, chances, strict=True))


def bid_reasons(cards, chances: np.ndarray, p_tricks: np.ndarray, best: int) -> dict:
    """Bid advice's reasons: ``chances`` (r+1, cards), each card's chance of taking a trick bidding b."""
    expected = p_tricks @ np.arange(p_tricks.shape[1])
    text = (f"bidding {best}, your {expected[best]:.2f} expected tricks come from "
            f"{_cards_line(cards, chances[best])} (each card's chance of taking a trick)")
    return {"kind": "bid", "bid": int(best),
            "cards": [{"card": format_card(c), "p_trick": json_float(p)} for c, p in zip(cards, chances[best],
                                                                                         strict=True)],
            "by_bid": [{"bid": b, "p_trick": [json_float(p) for p in chances[b]], "expected_tricks":
                        json_float(expected[b]), "p_tricks": [json_float(p) for p in p_tricks[b]]}
                       for b in range(len(chances))],
            "text": text}


def bid_comparison(reasons: dict, chosen: int) -> dict:
    """The review's reasons for a bid: the advised bid's per-card chances and the chosen bid's."""
    cards = [x["card"] for x in reasons["cards"]]
    best = reasons["bid"]
    rows = {b: reasons["by_bid"][b] for b in (best, chosen)}

    def line(b):
        return ", ".join(f"{c} {_pct(p)}" for c, p in zip(cards, rows[b]["p_trick"], strict=True))

    text = f"bidding {best}: {line(best)} ({rows[best]['expected_tricks']:.2f} tricks expected)"
    if chosen != best:
        text += f"; bidding {chosen}: {line(chosen)} ({rows[chosen]['expected_tricks']:.2f})"
    return {"kind": "bid", "bid": best, "chosen": chosen, "cards": cards, "best": rows[best],
            "chosen_bid": rows[chosen], "text": text}


# ---- play -------------------------------------------------------------------------------------------

@dataclass
class Explained:
    """What play advice keeps to explain itself: the worlds it played out (every card on each) and how."""

    state: object  # policies.records.PlayState
    names: tuple  # each seat's policy in the play-outs
    seed: int
    worlds: np.ndarray  # (n, players) uint64, the advice's deals in the order of its table's rows
    turn_ups: np.ndarray  # (n,) int8
    streams: np.ndarray  # (n,) int64: the play stream (round index) each world was played out on
    tricks: np.ndarray  # (n, k) int8: the advice's own figures, per world and card


def explain_play(advice, state, names, seed: int, batches: list, tricks: np.ndarray) -> None:
    """Keep what ``advice`` (``PlayAdvice``) rests on and give it its reasons: ``batches`` the worlds each
    evaluation played out, as (worlds, turn_ups, each one's play stream), in the order of its rows; ``tricks``
    (n, k) the player's tricks on each (the advice's figures)."""
    players = state.players
    worlds = [b[0] for b in batches] or [np.zeros((0, players), np.uint64)]
    turn_ups = [b[1] for b in batches] or [np.zeros(0, np.int8)]
    streams = [np.asarray(b[2], np.int64) for b in batches] or [np.zeros(0, np.int64)]
    advice.explained = Explained(state, tuple(names), seed, np.concatenate(worlds), np.concatenate(turn_ups),
                                 np.concatenate(streams), tricks)
    advice.reasons = play_reasons(advice, runner_up(advice))


def runner_up(advice) -> int | None:
    """The legal card with the highest expected score after the advised one (another card by its text)."""
    best = advice.best_index
    text = format_card(int(advice.cards[best]))
    for j in np.argsort(-advice.ev, kind="stable"):
        if format_card(int(advice.cards[j])) != text:
            return int(j)
    return None


def play_reasons(advice, other: int | None) -> dict:
    """Play advice's reasons, the advised card set against card index ``other`` (None: no other card)."""
    rows = [{"card": format_card(int(c)), "expected_tricks": json_float(advice.expected_tricks[j]),
             "p_make": json_float(advice.p_make[j]), "ev": json_float(advice.ev[j])}
            for j, c in enumerate(advice.cards)]
    out = {"kind": "card", "cards": rows, "compare": None, "text": None}
    if other is not None and advice.explained is not None:
        out["compare"] = compare_cards(advice, advice.best_index, other)
        out["text"] = out["compare"]["line"]
    return out


def _ending(taken: int, bid: int) -> str:
    if taken == bid:
        return f"make your bid of {bid}"
    diff = abs(taken - bid)
    return f"end {WORDS[diff] if diff < len(WORDS) else diff} {'under' if taken < bid else 'over'}"


def compare_cards(advice, a: int, b: int) -> dict:
    """Card index ``a`` against ``b`` on the advice's deals: the shares of weight where ``a`` scores more and
    less, and one representative deal where they end differently, played out again with both (see the
    module docstring)."""
    from wizsim.rules.api import score

    ex: Explained = advice.explained
    bid = int(advice.question["bids"][ex.state.me])
    card_a, card_b = format_card(int(advice.cards[a])), format_card(int(advice.cards[b]))
    ta, tb = ex.tricks[:, a].astype(np.int64), ex.tricks[:, b].astype(np.int64)
    w = np.ones(len(ta)) if advice.deal_weights is None else np.asarray(advice.deal_weights, np.float64)
    gain = score(bid, ta) - score(bid, tb)
    total = w.sum() if len(w) else 1.0
    out = {"card": card_a, "other": card_b, "better": json_float(w[gain > 0].sum() / total),
           "worse": json_float(w[gain < 0].sum() / total), "line": None, "deal": None}
    pick = gain > 0 if (gain > 0).any() else gain != 0
    if not pick.any():
        out["line"] = f"{card_a} and {card_b} end the round alike on every simulated deal"
        return out
    pairs: dict[tuple[int, int], float] = {}
    for i in np.flatnonzero(pick):
        key = (int(ta[i]), int(tb[i]))
        pairs[key] = pairs.get(key, 0.0) + float(w[i])
    top = max(pairs.items(), key=lambda kv: kv[1])[0]
    i = int(np.flatnonzero(pick & (ta == top[0]) & (tb == top[1]))[0])
    deal = replay(ex, int(advice.cards[a]), int(advice.cards[b]), i)
    out["deal"] = deal
    out["line"] = line_of_play(deal, card_a, card_b, bid, ex.state.me)
    return out


def replay(ex: Explained, card_a: int, card_b: int, i: int) -> dict:
    """World ``i`` of the advice played out again with ``card_a`` and with ``card_b`` now, the trick logs kept:
    each as the tricks from the current one on (leader, cards in order of play, winner; seats 1-based)."""
    from wizsim.advisor.kernels.playouts import evaluate_worlds

    st = ex.state
    players, r = st.players, st.r
    m = r * players
    logs = np.zeros((1, 2, m + 2 * r), np.int8)
    got = evaluate_worlds(st, ex.worlds[i:i + 1], ex.turn_ups[i:i + 1], np.array([card_a, card_b], np.int8),
                          seed=ex.seed, first_index=int(ex.streams[i]), names=list(ex.names), logs=logs)
    down = bin(st.played).count("1")  # cards played before this decision
    first = down // players  # the current trick
    plays = []
    for j, card in enumerate((card_a, card_b)):
        log = logs[0, j]
        cards = log[:m].copy()
        cards[first * players:down] = st.trick_cards
        cards[down] = card
        tricks = [{"trick": t + 1, "leader": int(log[m + t]) + 1,
                   "cards": [format_card(int(c)) for c in cards[t * players:(t + 1) * players]],
                   "winner": int(log[m + r + t]) + 1} for t in range(first, r)]
        plays.append({"card": format_card(card), "tricks_taken": int(got[0, j]), "tricks": tricks})
    hands = [format_cards(mask_to_cards(int(ex.worlds[i, s]))) for s in range(players)]
    return {"index": i, "hands": hands, "turn_up": None if ex.turn_ups[i] < 0 else format_card(int(ex.turn_ups[i])),
            "plays": plays}


def _own_card(trick: dict, me: int, players: int) -> str:
    return trick["cards"][(me + 1 - trick["leader"]) % players]


def line_of_play(deal: dict, card_a: str, card_b: str, bid: int, me: int) -> str:
    """One line: the first trick the player wins after one card and not after the other, and how each ends."""
    pa, pb = deal["plays"]
    players = len(pa["tricks"][0]["cards"])
    seat = me + 1
    x, y = next((x, y) for x, y in zip(pa["tricks"], pb["tricks"], strict=True)
                if (x["winner"] == seat) != (y["winner"] == seat))
    t = x["trick"]

    def taker(trick) -> str:
        return f"seat {trick['winner']}'s {trick['cards'][(trick['winner'] - trick['leader']) % players]}"

    now = t == pa["tricks"][0]["trick"]  # the trick of this decision: the card played now decides it

    def part(trick, card: str, first: bool) -> str:
        mine = _own_card(trick, me, players)
        lead = (card if first else f"with {card} you") if now else f"after {card}, your {mine}"
        what = f"trick {t}" if first else "it"
        if trick["winner"] == seat:
            return f"{lead} {'win' if lead.endswith('you') else 'wins'} {what}"
        return f"{lead} {'lose' if lead.endswith('you') else 'loses'} {what} to {taker(trick)}"

    return (f"{part(x, card_a, True)} and you {_ending(pa['tricks_taken'], bid)}; {part(y, card_b, False)} and you "
            f"{_ending(pb['tricks_taken'], bid)}")


# ---- trump ------------------------------------------------------------------------------------------

def trump_reasons(cards, best_bid: np.ndarray, expected: np.ndarray, chances: np.ndarray, best: int) -> dict:
    """Trump advice's reasons: each suit's expected tricks at its best bid (``expected`` (4,)) and, for the
    best suit, each card's chance of taking a trick (``chances`` (cards,))."""
    from wizsim.cards import format_trump

    text = (f"naming {format_trump(best)} and bidding {int(best_bid[best])}, your {expected[best]:.2f} expected "
            f"tricks come from {_cards_line(cards, chances)}")
    return {"kind": "trump", "suit": format_trump(best),
            "suits": [{"suit": format_trump(s), "best_bid": int(best_bid[s]), "expected_tricks": json_float(expected[s])}
                      for s in range(4)],
            "cards": [{"card": format_card(c), "p_trick": json_float(p)} for c, p in zip(cards, chances, strict=True)],
            "text": text}
