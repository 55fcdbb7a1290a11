"""Plain-Python twins of the policy kernels: ``policies.random_policy``, ``policies.heuristic``,
``policies.worlds``, ``policies.rollout`` and ``policies.search`` (same function names), one section each.

Random (written from issue 2's description of the policy). The random policy bids uniformly among
the allowed bids 0..r (the hook's forbidden bid left out), plays a uniformly random legal card, and as dealer on a turned-up Wizard names a uniformly random
suit. Each choice draws once from the round's play stream (``deal.reference.Stream``) and picks the
k-th item of an ascending list, which is what makes the twin consume the stream exactly as the kernel
does: for the same stream state both choose the same bid, card and suit.

Heuristic (written from the plan in ``policies.heuristic``'s docstring). Cards are ids in lists and
sets; whether a card would win is asked of the rules twin (``rules.reference.Trick``) by putting it on the trick, not computed with masks. "Power" orders
cards on their own: Jester 0 < side card (21 + rank) < trump (51 + rank) < Wizard 100; ties go to
the lowest id. The value table layout (feature indices) is the data contract shared with the kernel.

Worlds and search (written from the docstrings of ``policies.worlds`` and ``policies.search`` and the
the "search" paragraph of docs/guide/tournaments.md). Cards are sets of ids, a world is a list of sets; where a card may go is
asked of small ``Slot`` objects, a decision is a table of round scores. They take the same draws from
the stream in the same order as the kernels (the order each docstring states), so kernel and twin
agree exactly on the same stream state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from wizsim.cards import N_CARDS, N_RANKS, card_rank, card_suit, is_jester, is_wizard
from wizsim.config import MIN_PLAYERS, n_game_rounds
from wizsim.deal.reference import Stream
from wizsim.policies.heuristic import F_EARLIER, F_JESTER, F_SEAT, F_SIDE, F_TRUMP, F_VOID, F_WIZARD, N_FEATURES
from wizsim.policies.records import Opponents, RoundInfo, RoundState
from wizsim.policies.search import MAX_TRIES, P_BID_TRUST, P_DOUBLINGS, P_PLAY_TRUST, P_WORLDS
from wizsim.rules.reference import Trick, forbidden_bid, score_round
from wizsim.stats import Z95

# --- random ---

N_SUITS = 4


def random_bid(r: int, forbidden: int, stream: Stream) -> int:
    """A uniform bid among 0..r, leaving out ``forbidden`` (the hook's bid, or -1 for none)."""
    allowed = [b for b in range(r + 1) if b != forbidden]
    return allowed[stream.rand_below(len(allowed))]


def random_card(legal: Iterable[int], stream: Stream) -> int:
    """A uniform card among ``legal`` (ids, any order; never empty)."""
    ordered = sorted(int(c) for c in legal)
    return ordered[stream.rand_below(len(ordered))]


def random_trump(stream: Stream) -> int:
    """A uniform suit 0..3: the dealer's choice on a turned-up Wizard."""
    return stream.rand_below(N_SUITS)


# --- heuristic ---


def row_offset(players: int, r: int, trump: int) -> int:
    """Rows are ordered by players 3..6, then round size 1..60/players, then trump (0) / no trump (1)."""
    before = sum(n_game_rounds(p) for p in range(MIN_PLAYERS, players))
    return ((before + r - 1) * 2 + (1 if trump < 0 else 0)) * N_FEATURES


def _suited(cards, suit):
    return sorted(c for c in cards if card_suit(c) == suit)


def hand_value(table, players: int, r: int, hand: Iterable[int], trump: int, seat: int, bids) -> float:
    hand = sorted(int(c) for c in hand)
    row = row_offset(players, r, trump)
    n_wiz = sum(is_wizard(c) for c in hand)
    n_jes = sum(is_jester(c) for c in hand)
    value = n_wiz * table[row + F_WIZARD]
    value += n_jes * table[row + F_JESTER]
    holds_trump = trump >= 0 and len(_suited(hand, trump)) > 0
    voids = 0
    for suit in range(4):
        cards = _suited(hand, suit)
        if suit != trump and not cards and holds_trump:
            voids += 1
        for c in cards:
            if suit == trump:
                value += table[row + F_TRUMP + card_rank(c)]
            else:
                value += table[row + F_SIDE + (min(len(cards), 4) - 1) * N_RANKS + card_rank(c)]
    excess = sum(int(b) for b in bids[:seat]) - seat * r / players
    value += voids * table[row + F_VOID]
    value += excess * table[row + F_EARLIER]
    value += table[row + F_SEAT + seat]
    return value


def heuristic_bid(params, table, seat: int, players: int, r: int, hand, trump: int, bids, forbidden: int) -> int:
    """The value rounded to the nearest whole trick, 0..r; off the hook's forbidden bid by one step
    toward the value (the other way at the edge of 0..r)."""
    value = hand_value(table, players, r, hand, trump, seat, bids) + params[0]
    bid = min(max(math.floor(value + 0.5), 0), r)
    if bid == forbidden:
        step = 1 if value >= bid else -1
        if not 0 <= bid + step <= r:
            step = -step
        bid += step
    return bid


def heuristic_trump_choices(params, table, players: int, r: int, hand) -> list[int]:
    """The suits whose cards in the hand are worth most as trumps (more than one on a tie), ascending."""
    row = row_offset(players, r, 0)
    worth = []
    for suit in range(4):
        total = 0.0
        for c in _suited(hand, suit):
            total += table[row + F_TRUMP + card_rank(c)]
        worth.append(total)
    return [s for s in range(4) if worth[s] == max(worth)]


def heuristic_trump(params, table, players: int, r: int, hand, stream: Stream) -> int:
    """The best suit as trump; on a tie one of the tied suits, uniformly, drawn from ``stream``."""
    choices = heuristic_trump_choices(params, table, players, r, hand)
    return choices[0] if len(choices) == 1 else choices[stream.rand_below(len(choices))]


def power(card: int, trump: int) -> int:
    if is_jester(card):
        return 0
    if is_wizard(card):
        return 100
    return (51 if card_suit(card) == trump else 21) + card_rank(card)


def pick_max(cards, trump):
    return min(cards, key=lambda c: (-power(c, trump), c))


def pick_min(cards, trump):
    return min(cards, key=lambda c: (power(c, trump), c))


def discard_key(card: int, trump: int) -> int:
    """Giving a card away while still wanting tricks: low side cards first, a Jester ranks like a
    side 8 1/2 (kept as an escape), then higher side cards, trumps, Wizards."""
    if is_jester(card):
        return 13
    if is_wizard(card):
        return 100
    return (40 + card_rank(card)) if card_suit(card) == trump else 2 * card_rank(card)


def pick_discard(cards, trump):
    return min(cards, key=lambda c: (discard_key(c, trump), c))


def heuristic_card(seat: int, players: int, hand, legal, turn_up: int, trump: int, need: int, played,
                   trick: list[int], voids: list[set[int]]) -> int:
    """``need``: own bid minus own tricks; ``played``: every card played this round (this trick too);
    ``trick``: this trick's cards in order; ``voids[s]``: suits seat s has shown it lacks."""
    hand = set(int(c) for c in hand)
    legal = sorted(int(c) for c in legal)
    seen = set(hand) | set(int(c) for c in played) | ({turn_up} if turn_up >= 0 else set())
    unseen = set(range(N_CARDS)) - seen

    def boss(c):
        return not any(card_suit(u) == card_suit(c) and u > c for u in unseen)

    n_wiz = sum(is_wizard(c) for c in hand)
    wizards = [c for c in legal if is_wizard(c)]
    if not trick:
        if need > 0:
            if need >= len(hand):
                return pick_max(legal, trump)
            bosses = [c for c in legal if card_suit(c) >= 0 and boss(c)]
            side = [c for c in bosses if card_suit(c) != trump]
            if side:
                return pick_max(side, trump)
            if bosses:
                return pick_min(bosses, trump)
            if wizards:
                return wizards[0]
            return pick_discard(legal, trump)
        low = [c for c in legal if card_suit(c) >= 0 and card_suit(c) != trump]
        if low and card_rank(pick_min(low, trump)) <= 7:
            return pick_min(low, trump)
        jesters = [c for c in legal if is_jester(c)]
        if jesters:
            return jesters[0]
        return pick_min(legal, trump)

    winners = [c for c in legal if Trick(trump, list(trick) + [c]).winner() == len(trick)]
    later = [(seat + i) % players for i in range(1, players - len(trick))]

    def threatened(suit):
        if suit == trump or trump < 0 or not any(card_suit(u) == trump for u in unseen):
            return False
        if any(suit in voids[s] for s in later):
            return True
        return sum(card_suit(u) == suit for u in unseen) < len(later)

    if need > 0:
        if winners:
            if not later:
                return pick_min(winners, trump)
            win_wiz = [c for c in winners if is_wizard(c)]
            if win_wiz and need <= n_wiz:
                return win_wiz[0]
            plain = [c for c in winners if not is_wizard(c)]
            safe = [c for c in plain if boss(c) and not threatened(card_suit(c))]
            if safe:
                return pick_min(safe, trump)
            if need >= len(hand):
                return pick_max(winners, trump)
            if plain:
                return pick_max(plain, trump)
            return win_wiz[0]
        if wizards and n_wiz > need:
            return wizards[0]
        return pick_discard(legal, trump)
    losers = [c for c in legal if c not in winners]
    if losers:
        return pick_max(losers, trump)
    return pick_max(winners, trump) if not later else pick_min(winners, trump)


# --- worlds (``policies.worlds``), written from its docstring ---
#
# Cards are ids in sets; a seat's voids are a set of suits. Where a card may go is asked of small ``Slot``
# objects (a seat's hand, the undealt pile, the turned-up card), and a card's place is drawn as one of the
# free places of the slots that take it, listed in slot order.

FAILED = -2
NO_TURN_UP = -1
WIZARD_OR_JESTER = 4  # the "suit" a Wizard or a Jester is classed under


@dataclass
class Slot:
    """A place unseen cards go, with ``room`` for so many more: a seat's hand (never a suit the seat
    showed it lacks), the undealt pile (any card) or the turned-up card (one of the cards it may be)."""

    kind: str  # "hand", "pile" or "turned-up"
    room: int
    seat: int = -1
    lacks: frozenset[int] = frozenset()
    may_be: frozenset[int] = frozenset()

    def takes(self, card: int) -> bool:
        if self.kind == "hand":
            return card_suit(card) not in self.lacks
        if self.kind == "turned-up":
            return card in self.may_be
        return True


def _fraction(stream: Stream) -> float:
    """A uniform draw in [0, 1): the top 53 bits of one word of the stream."""
    return (stream.next_u64() >> 11) / 2.0 ** 53


def deal_world(stream: Stream, players: int, unseen, needs, voids, pool) -> tuple[int, list[set[int]]]:
    """One uniform deal of the ``unseen`` cards consistent with what a seat knows: (the turned-up card,
    ``NO_TURN_UP`` when no card of ``pool`` is unseen, or ``FAILED``; each seat's cards).

    ``needs[s]``: how many cards seat s gets; ``voids[s]``: the suits seat s showed it lacks; ``pool``:
    the cards the turned-up card may be. The rest of the unseen cards is the undealt pile. Cards are
    classed by suit (Wizards and Jesters together) and by whether they may be the turned-up card; the
    class whose cards have the least room at the start goes first (ties: suit order, then the class
    that may not be turned up), its cards in ascending id. Each card goes to one of the free places it
    may take, all equally likely; the deal is kept with chance prod(places / bound), bound being the
    most places that card could have found whatever came before (the class's room at the start less
    the class's cards already placed, and no more than the cards left)."""
    cards = sorted(int(c) for c in unseen)
    may_turn_up = frozenset(int(c) for c in pool) & frozenset(cards)
    hands: list[set[int]] = [set() for _ in range(players)]
    slots = [Slot("hand", int(needs[s]), seat=s, lacks=frozenset(voids[s])) for s in range(players)]
    turned_up = Slot("turned-up", 1 if may_turn_up else 0, may_be=may_turn_up)
    pile = Slot("pile", len(cards) - sum(slot.room for slot in slots) - turned_up.room)
    slots += [pile, turned_up]
    if pile.room < 0:
        return FAILED, hands

    def places(card):
        return [slot for slot in slots if slot.takes(card) for _ in range(slot.room)]

    classes: dict[tuple[int, bool], list[int]] = {}
    for card in cards:
        suit = card_suit(card) if card_suit(card) >= 0 else WIZARD_OR_JESTER
        classes.setdefault((suit, card in may_turn_up), []).append(card)
    room_at_start = {key: len(places(members[0])) for key, members in classes.items()}
    weight = 1.0
    left = len(cards)
    turn_up = NO_TURN_UP
    for key in sorted(classes, key=lambda key: (room_at_start[key], key)):
        for placed, card in enumerate(classes[key]):
            free = places(card)
            if not free:
                return FAILED, hands
            weight *= len(free) / min(left, room_at_start[key] - placed)
            slot = free[stream.rand_below(len(free))]
            slot.room -= 1
            if slot.kind == "hand":
                hands[slot.seat].add(card)
            elif slot.kind == "turned-up":
                turn_up = card
            left -= 1
    if weight < 1.0 and _fraction(stream) >= weight:
        return FAILED, hands
    return turn_up, hands


def draw_world(stream: Stream, players: int, me: int, hand, unseen, needs, voids, pool, max_tries: int):
    """(turned-up card or FAILED, world): ``deal_world`` until it finds a deal, at most ``max_tries``;
    ``world[me]`` is ``hand``. A turned-up card the seat has seen is given as ``pool`` holding no unseen
    card, and is the world's."""
    pool = {int(c) for c in pool}
    seen_turn_up = min(pool) if pool and not pool & {int(c) for c in unseen} else None
    for _ in range(max_tries):
        turn_up, world = deal_world(stream, players, unseen, needs, voids, pool)
        if turn_up != FAILED:
            world[me] = set(hand)
            return (seen_turn_up if seen_turn_up is not None else turn_up), world
    return FAILED, [set() for _ in range(players)]


def _mask(cards) -> int:
    return sum(1 << int(c) for c in cards)


def sample_world(stream: Stream, players, r, me, hand, unseen, needs, voids, pool, seat_played, trump, bids, hook,
                 n_heard, kinds, mparams, table, trust, trump_evidence, max_tries, trick=None):
    """(turned-up card, deals drawn, world): deals drawn with ``draw_world`` (one try each), each kept
    with chance likelihood / bound, the likelihood of the heard bids of seats ``< n_heard`` (and of the
    dealer naming ``trump``, and, with ``trick`` = (play trust, tricks taken, cards played, the current
    trick's cards, its leader), of that trick's cards: ``trick_likelihood``) under the opponents' model's
    twins, the bound its largest value; after ``max_tries`` the likeliest deal drawn stands (a legal
    state always gets a world)."""
    dealer = players - 1
    opponents = Opponents(kinds, mparams, table, trust, trick[0] if trick is not None else 0.0, trust, None)
    bound = 1.0
    for s in range(n_heard):
        if s != me and kinds[s] != MODEL_BLIND and trust > 0:
            bound *= _max_seat_bid_weight(kinds[s], bids[s], r, forbidden_bid(hook, s, players, r, sum(bids[:s])),
                                         trust)
    if trump_evidence:
        bound *= named_trump_bound(kinds[dealer], trust)
    best = (-1.0, FAILED, None)
    for tries in range(1, max_tries + 1):
        turn_up, world = draw_world(stream, players, me, hand, unseen, needs, voids, pool, 1)
        if turn_up == FAILED:
            continue
        whole = [_mask(set(world[s]) | set(seat_played[s])) for s in range(players)]
        info = RoundInfo(players, r, hook, turn_up, trump)
        like, _ = bids_likelihood(opponents, info, me, whole, bids, n_heard)
        if trump_evidence:
            like *= named_trump_likelihood(kinds[dealer], mparams[dealer], table, trust, players, r, whole[dealer],
                                           trump)
        if trick is not None and trick[0] > 0 and trick[3]:
            play_trust, tricks, played, cards, leader = trick
            state = RoundState(world, seat_played, voids, cards, bids, tricks)
            like *= trick_likelihood(opponents, info, state, me, played, leader)
        if _fraction(stream) * bound < like:
            return turn_up, tries, world
        if like > best[0]:
            best = (like, turn_up, world)
    if best[1] == FAILED:
        turn_up, world = draw_world(stream, players, me, hand, unseen, needs, voids, pool, 100_000)
        return turn_up, max_tries, world
    return best[1], max_tries, best[2]


# --- rollout (``policies.rollout``) ---


def heuristic_tricks(players: int, turn_up: int, trump: int, hands, bids, tricks, voids, trick_cards, leader: int,
                     played) -> list[int]:
    """Each seat's tricks at the end of the round, played on from the given state (hands: sets of ids,
    voids: sets of suits, trick_cards: the current trick, played: every card played so far, in any
    order) with the heuristic twin in every seat; every rule from ``rules.reference.Trick``."""
    hands = [set(h) for h in hands]
    tricks = list(tricks)
    voids = [set(v) for v in voids]
    played = list(played)
    trick = Trick(trump=trump, cards=list(trick_cards))
    while True:
        if len(trick.cards) == players:
            leader = (leader + trick.winner()) % players
            tricks[leader] += 1
            trick = Trick(trump=trump)
        s = (leader + len(trick.cards)) % players
        if not hands[s]:
            return tricks
        legal = [c for c in sorted(hands[s]) if trick.may_play(hands[s], c)]
        card = heuristic_card(s, players, sorted(hands[s]), legal, turn_up, trump, bids[s] - tricks[s], played,
                              list(trick.cards), voids)
        led = trick.led
        if led >= 0 and card_suit(card) >= 0 and card_suit(card) != led:
            voids[s].add(led)
        hands[s].remove(card)
        played.append(card)
        trick.cards.append(card)


# --- search (``policies.search``), written from its docstring and docs/guide/tournaments.md's "search" paragraph ---
#
# A decision is a table of round scores, one row per world and one column per candidate; the worlds come
# from ``sample_world`` above, the play-outs from ``heuristic_tricks`` above, every rule from the rules twin.

ALL_CARDS = frozenset(range(N_CARDS))


class Worlds:
    """The worlds of one decision, drawn from ``stream`` by ``sample_world``: every other seat modelled as
    the heuristic with this policy's parameters, the first ``n_heard`` seats' bids (and an opponent
    dealer's named trump) weighed at the policy's ``bid_trust``."""

    def __init__(self, stream: Stream, players: int, r: int, me: int, hand, seen, needs, voids, turn_up: int,
                 seat_played, trump: int, bids, hook: bool, n_heard: int, params, table, trick=None):
        self.stream, self.players, self.r, self.me, self.hand = stream, players, r, me, set(hand)
        self.unseen = ALL_CARDS - set(hand) - set(seen) - {turn_up}
        self.needs, self.voids, self.seat_played = needs, voids, seat_played
        self.pool = {turn_up} if turn_up >= 0 else set()
        self.trump, self.bids, self.hook, self.n_heard = trump, list(bids), hook, n_heard
        # a dealer who named the trump on a turned-up Wizard told something about its hand
        self.trump_evidence = me != players - 1 and is_wizard(turn_up)
        self.params, self.table = params, table
        self.kinds = [0 if s == me else 1 for s in range(players)]
        self.trick = trick  # sample_world's: the current trick's cards as evidence, at the policy's play_trust

    def next(self) -> list[set[int]]:
        return sample_world(self.stream, self.players, self.r, self.me, self.hand, self.unseen, self.needs,
                            self.voids, self.pool, self.seat_played, self.trump, self.bids, self.hook, self.n_heard,
                            self.kinds, [self.params] * self.players, self.table, self.params[P_BID_TRUST],
                            self.trump_evidence, MAX_TRIES, self.trick)[2]


def _close_call(scores: list[list[int]]) -> bool:
    """Whether the best candidate (highest total) fails to beat the runner-up by a paired 95% interval
    over the worlds; never with one world, nor when the two scored the same on every world."""
    n, k = len(scores), len(scores[0])
    totals = [sum(row[j] for row in scores) for j in range(k)]
    best = max(range(k), key=lambda j: totals[j])
    runner_up = max((j for j in range(k) if j != best), key=lambda j: totals[j])
    diffs = [row[best] - row[runner_up] for row in scores]
    if n < 2 or not any(diffs):
        return False
    mean = sum(diffs) / n
    squares = 0.0
    for d in diffs:
        squares += (d - mean) * (d - mean)
    return mean <= Z95 * math.sqrt(squares / (n - 1) / n)


def _decide(params, stream: Stream, n_candidates: int, worlds: Worlds, score) -> int:
    """The chosen candidate's index: ``score(world, j)`` on a batch of ``params[P_WORLDS]`` worlds; on a
    close call, with doublings left (``params[P_DOUBLINGS]``), twice as many worlds; then the highest
    total, a tie broken by one uniform draw from ``stream``."""
    target, doublings = int(params[P_WORLDS]), int(params[P_DOUBLINGS])
    scores: list[list[int]] = []
    while True:
        while len(scores) < target:
            world = worlds.next()
            scores.append([score(world, j) for j in range(n_candidates)])
        if doublings > 0 and _close_call(scores):
            doublings -= 1
            target *= 2
            continue
        totals = [sum(row[j] for row in scores) for j in range(n_candidates)]
        tied = [j for j in range(n_candidates) if totals[j] == max(totals)]
        return tied[0] if len(tied) == 1 else tied[stream.rand_below(len(tied))]


def _bid_and_play(params, table, players: int, r: int, hook: bool, turn_up: int, trump: int, world, bids,
                  first: int) -> tuple[list[int], list[int]]:
    """(bids, tricks): seats ``first..`` bid by the heuristic, each seeing the bids before it, then the
    whole round is played on ``world`` with the heuristic in every seat."""
    bids = list(bids)
    for s in range(first, players):
        hand = sorted(world[s])
        bids[s] = heuristic_bid(params, table, s, players, r, hand, trump, bids,
                                forbidden_bid(hook, s, players, r, sum(bids[:s])))
    tricks = heuristic_tricks(players, turn_up, trump, world, bids, [0] * players, [set() for _ in range(players)], [],
                              0, [])
    return bids, tricks


def search_card(params, table, seat: int, players: int, r: int, hook: bool, hand, turn_up: int, trump: int, bids,
                tricks, seat_played, trick, voids, stream: Stream) -> int:
    """The search policy's card. ``hand``: the seat's cards; ``seat_played[s]``: the cards seat s played
    this round (this trick's too); ``trick``: this trick's cards in order; ``voids[s]``: the suits seat s
    showed it lacks. The candidates are the legal cards (``rules.reference.Trick``), ascending; each is
    played now and the round is played out on every world."""
    hand = set(hand)
    now = Trick(trump, list(trick))
    candidates = [c for c in sorted(hand) if now.may_play(hand, c)]
    if len(candidates) == 1:
        return candidates[0]
    played = set().union(*map(set, seat_played))
    needs = [0 if s == seat else r - len(seat_played[s]) for s in range(players)]
    leader = (seat - len(trick)) % players
    worlds = Worlds(stream, players, r, seat, hand, played, needs, voids, turn_up, seat_played, trump, bids, hook,
                    players, params, table, (params[P_PLAY_TRUST], tricks, played, list(trick), leader))

    def score(world, j):
        card = candidates[j]
        hands = [set(h) for h in world]
        hands[seat].remove(card)
        shown = [set(v) for v in voids]
        if now.led >= 0 and card_suit(card) >= 0 and card_suit(card) != now.led:
            shown[seat].add(now.led)  # not following the led suit with a suited card shows a void
        taken = heuristic_tricks(players, turn_up, trump, hands, bids, tricks, shown, list(trick) + [card], leader,
                                 sorted(played) + [card])
        return score_round(bids[seat], taken[seat])

    return candidates[_decide(params, stream, len(candidates), worlds, score)]


def search_bid(params, table, seat: int, players: int, r: int, hook: bool, hand, turn_up: int, trump: int, bids,
               forbidden: int, stream: Stream) -> int:
    """The search policy's bid: every allowed bid tried on every world, the seats after it bidding by the
    heuristic, the round played out. ``bids``: the bids so far (-1 for seats yet to bid)."""
    candidates = [b for b in range(r + 1) if b != forbidden]
    if len(candidates) == 1:
        return candidates[0]
    nobody = [set() for _ in range(players)]
    needs = [0 if s == seat else r for s in range(players)]
    worlds = Worlds(stream, players, r, seat, hand, (), needs, nobody, turn_up, nobody, trump, bids, hook, seat,
                    params, table)  # the bids heard so far: seats before this one

    def score(world, j):
        with_mine = list(bids)
        with_mine[seat] = candidates[j]
        final_bids, taken = _bid_and_play(params, table, players, r, hook, turn_up, trump, world, with_mine, seat + 1)
        return score_round(final_bids[seat], taken[seat])

    return candidates[_decide(params, stream, len(candidates), worlds, score)]


def search_trump(params, table, players: int, r: int, hook: bool, hand, turn_up: int, stream: Stream) -> int:
    """The search policy's suit as dealer on the turned-up Wizard ``turn_up``: each suit tried on every
    world (nothing heard yet), everyone bidding by the heuristic, the round played out."""
    dealer = players - 1
    nobody = [set() for _ in range(players)]
    needs = [r] * dealer + [0]
    trustless = list(params)
    trustless[P_BID_TRUST] = 0.0  # nothing heard yet: every world weighs the same
    worlds = Worlds(stream, players, r, dealer, hand, (), needs, nobody, turn_up, nobody, 0, [-1] * players, hook,
                    0, trustless, table)

    def score(world, suit):
        final_bids, taken = _bid_and_play(params, table, players, r, hook, turn_up, suit, world, [-1] * players, 0)
        return score_round(final_bids[dealer], taken[dealer])

    return _decide(params, stream, 4, worlds, score)


# --- the opponents' model (policies.model), written from its docstring ---

MODEL_BLIND = 0
MODEL_NET = 2


def _mask_cards(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def bid_weight(model_bid: int, heard: int, r: int, forbidden: int, trust: float) -> float:
    """rho ** |heard - model| over the legal bids, normalised; trust 1: only the model's bid."""
    legal = [b for b in range(r + 1) if b != forbidden]
    if trust >= 1.0:
        return float(heard == model_bid)
    rho = 1.0 - trust
    raw = {b: rho ** abs(b - model_bid) for b in legal}
    return raw[heard] / sum(raw.values())


def max_bid_weight(heard: int, r: int, forbidden: int, trust: float) -> float:
    return max(bid_weight(m, heard, r, forbidden, trust) for m in range(r + 1) if m != forbidden)


def trump_weight(choices: list[int], named: int, trust: float) -> float:
    """Weight 1 for each suit the model may name, rho for the others, over the four suits."""
    if trust >= 1.0:
        return 1.0 / len(choices) if named in choices else 0.0
    rho = 1.0 - trust
    raw = [1.0 if s in choices else rho for s in range(4)]
    return raw[named] / sum(raw)


def card_weight(is_choice: bool, n_legal: int, trust: float) -> float:
    if n_legal <= 1:
        return 1.0
    rho = 1.0 - trust
    raw = [1.0] + [rho] * (n_legal - 1)  # the model's card first
    return (raw[0] if is_choice else rho) / sum(raw)


def net_bid_weight(table, seat, info, hand: int, bids, forbidden: int, trust: float) -> tuple[float, int]:
    """(trust times the bid network's softmax of the heard bid ``bids[seat]`` plus the uniform rest, net's
    own bid), by ``policies.net_reference``."""
    from types import SimpleNamespace

    from wizsim.policies import net_reference
    from wizsim.policies.net import NET_OFFSET

    obs = SimpleNamespace(seat=seat, players=info.players, r=info.r, hook=info.hook, hand=int(hand),
                          forbidden=forbidden, turn_up=info.turn_up, trump=info.trump, bids=list(bids))
    probs = net_reference.bid_softmax(table[NET_OFFSET:], obs)
    legal = [b for b in range(info.r + 1) if b != forbidden]
    return trust * probs[bids[seat]] + (1.0 - trust) / len(legal), max(legal, key=lambda b: (probs[b], -b))


def seat_bid_weight(opponents, seat, info, hand: int, bids, forbidden: int) -> tuple[float, int]:
    """(P(the seat's heard bid | its model, its hand), its model's bid): net's softmax for a net seat,
    else ``bid_weight`` of the heuristic twin's bid."""
    kind, params, table, trust = opponents.kinds[seat], opponents.params[seat], opponents.table, opponents.bid_trust
    if kind == MODEL_NET:
        return net_bid_weight(table, seat, info, hand, bids, forbidden, trust)
    m = heuristic_bid(params, table, seat, info.players, info.r, _mask_cards(int(hand)), info.trump, bids, forbidden)
    return bid_weight(m, bids[seat], info.r, forbidden, trust), m


def _max_seat_bid_weight(kind, heard: int, r: int, forbidden: int, trust: float) -> float:
    """The largest ``seat_bid_weight`` of ``heard`` whatever the hand: for net, a softmax of 1."""
    if kind == MODEL_NET:
        return trust + (1.0 - trust) / n_legal_bids(r, forbidden)
    return max_bid_weight(heard, r, forbidden, trust)


def bids_likelihood(opponents, info, me, hands, bids, n_heard):
    """(likelihood, model bids) of the first ``n_heard`` heard bids; ``hands[s]`` a mask of seat s's cards;
    ``opponents`` a ``records.Opponents`` (its bid trust), ``info`` a ``records.RoundInfo``."""
    from wizsim.rules.reference import forbidden_bid

    kinds, trust = opponents.kinds, opponents.bid_trust
    players, r, hook = info.players, info.r, info.hook
    like = 1.0
    model_bids = [-1] * players
    for s in range(n_heard):
        forbidden = forbidden_bid(hook, s, players, r, sum(bids[:s]))
        if s != me and kinds[s] != MODEL_BLIND and trust > 0.0:
            w, model_bids[s] = seat_bid_weight(opponents, s, info, hands[s], bids, forbidden)
            like *= w
    return like, model_bids


def named_trump_likelihood(kind, params, table, trust, players, r, dealer_hand: int, named: int, net=None) -> float:
    """The heuristic's choices weighed by ``trump_weight``; a net dealer by the trump network's softmax
    (``net`` is the kernels' compile flag, not read here)."""
    if kind == MODEL_BLIND or trust <= 0.0:
        return 1.0
    if kind == MODEL_NET:
        from wizsim.policies import net_reference
        from wizsim.policies.net import NET_OFFSET

        probs = net_reference.trump_softmax(table[NET_OFFSET:], int(dealer_hand), players, r)
        return trust * probs[named] + (1.0 - trust) / 4.0
    return trump_weight(heuristic_trump_choices(params, table, players, r, _mask_cards(dealer_hand)), named, trust)


def named_trump_bound(kind, trust: float) -> float:
    """The largest ``named_trump_likelihood`` whatever the hand (one choice; for net a softmax of 1)."""
    if trust <= 0.0:
        return 1.0
    return trust + (1.0 - trust) / 4.0 if kind == MODEL_NET else trump_weight([0], 0, trust)


def play_likelihood(opponents, info, me, hands, bids, order, n_played) -> float:
    return play_likelihoods(opponents, info, me, hands, bids, order, n_played)[0]


def play_likelihoods(opponents, info, me, hands, bids, order, n_played):
    """(the model's likelihood, the blind table's) of the cards, the products over the seats of
    ``play_seat_likelihoods``."""
    like, blind = play_seat_likelihoods(opponents, info, me, hands, bids, order, n_played)
    return math.prod(like), math.prod(blind)


def play_seat_likelihoods(opponents, info, me, hands, bids, order, n_played):
    """Per seat (the model's likelihoods, the blind table's): replay the cards trick by trick with the rules
    twin; each card of a modelled seat other than ``me`` is weighed against the heuristic twin's choice in
    that seat's place, and (the blind table) as one of its legal cards drawn uniformly. ``opponents`` a
    ``records.Opponents`` (its kinds and play trust), ``info`` a ``records.RoundInfo``."""
    kinds, trust = opponents.kinds, opponents.play_trust
    players, turn_up, trump = info.players, info.turn_up, info.trump
    like, blind = [1.0] * players, [1.0] * players
    if trust <= 0.0:
        return like, blind
    for s, card, choice, n_legal, obs in _replayed_choices(players, hands, turn_up, trump, bids, order, n_played,
                                                           lambda s: s != me and kinds[s] != MODEL_BLIND, info.r):
        if kinds[s] == MODEL_NET:
            like[s] *= net_card_weight(opponents.table, obs, card, trust)
        else:
            like[s] *= card_weight(choice == card, n_legal, trust)
        blind[s] /= n_legal
    return like, blind


def net_card_weight(table, obs, card: int, trust: float) -> float:
    """``trust`` times the card network's probability of ``card`` (its kind's softmax shared among the legal
    cards of that kind) plus ``1 - trust`` over the legal cards, by ``policies.net_reference``; 1 where one
    card is legal."""
    from wizsim.policies import net_reference
    from wizsim.policies.net import NET_OFFSET

    n = bin(int(obs.legal)).count("1")
    if n <= 1:
        return 1.0
    return trust * net_reference.card_probability(table[NET_OFFSET:], obs, card) + (1.0 - trust) / n


def _seen(s, players, r, hand, legal, turn_up, trump, bids, tricks, played, trick, voids):
    """What seat ``s`` sees at its card (the fields ``net_reference.card_features`` reads), from the replay's
    sets: ``hand``, ``legal`` and ``played`` as masks, ``voids`` (per seat, a set of suits) as bits."""
    from types import SimpleNamespace

    mask = lambda cards: sum(1 << c for c in cards)  # noqa: E731
    return SimpleNamespace(seat=s, players=players, r=r, hand=mask(hand), legal=mask(legal), turn_up=turn_up,
                           trump=trump, bids=[int(b) for b in bids], tricks=list(tricks), played=mask(played),
                           trick_cards=list(trick.cards), n_in_trick=len(trick.cards), led=trick.led,
                           winning_pos=trick.winner() if trick.cards else -1,
                           voids=[sum(1 << q for q in v) for v in voids])


def _replayed_choices(players, hands, turn_up, trump, bids, order, n_played, weighed, r=None):
    """The cards of ``order`` replayed trick by trick with the rules twin: per card of a seat ``weighed(s)``
    holds for, (seat, card, the heuristic twin's card in that seat's place, the seat's legal cards then, what
    the seat saw there (``_seen``; with ``r``, the round size, else None))."""
    from wizsim.rules.reference import Trick

    held = [set(_mask_cards(int(h))) for h in hands]
    voids: list[set[int]] = [set() for _ in range(players)]
    tricks = [0] * players
    played: list[int] = []
    trick = Trick(trump=trump)
    leader = 0
    for card in [int(c) for c in order[:n_played]]:
        if len(trick.cards) == players:
            leader = (leader + trick.winner()) % players
            tricks[leader] += 1
            trick = Trick(trump=trump)
        s = (leader + len(trick.cards)) % players
        if weighed(s):
            legal = [c for c in sorted(held[s]) if trick.may_play(held[s], c)]
            choice = heuristic_card(s, players, sorted(held[s]), legal, turn_up, trump, bids[s] - tricks[s], played,
                                    list(trick.cards), voids)
            seen = None if r is None else _seen(s, players, r, held[s], legal, turn_up, trump, bids, tricks, played,
                                               trick, voids)
            yield s, card, choice, len(legal), seen
        led = trick.led
        if led >= 0 and card_suit(card) >= 0 and card_suit(card) != led:  # a suited card off the led suit
            voids[s].add(led)
        held[s].discard(card)
        trick.cards.append(card)
        played.append(card)


def trick_likelihood(opponents, info, state, me, played, leader) -> float:
    """The current trick's cards (``state.trick_cards``, in order, led by ``leader``) weighed as
    ``play_likelihood`` weighs a round's: each card of a modelled seat other than ``me`` against the
    heuristic twin's choice with the hand it held then (``state.live[s]``, the set of its cards now, plus
    that card), the cards played before it and the voids known now (``state.voids``, sets of suits); a net
    seat's card by ``net_card_weight`` in the same place. ``opponents`` a ``records.Opponents`` (its kinds,
    table and play trust), ``info`` a ``records.RoundInfo``."""
    kinds, trust = opponents.kinds, opponents.play_trust
    players, turn_up, trump = info.players, info.turn_up, info.trump
    hands, voids, trick, bids, tricks = state.live, state.voids, state.trick_cards, state.bids, state.tricks
    if trust <= 0.0:
        return 1.0
    before = set(played) - set(trick)
    now = Trick(trump=trump)
    like = 1.0
    for j, card in enumerate(int(c) for c in trick):
        s = (leader + j) % players
        if s != me and kinds[s] != MODEL_BLIND:
            hand = set(hands[s]) | {card}
            legal = [c for c in sorted(hand) if now.may_play(hand, c)]
            if kinds[s] == MODEL_NET:
                seen = _seen(s, players, info.r, hand, legal, turn_up, trump, bids, tricks, before, now, voids)
                like *= net_card_weight(opponents.table, seen, card, trust)
            else:
                choice = heuristic_card(s, players, sorted(hand), legal, turn_up, trump, bids[s] - tricks[s],
                                        sorted(before), list(now.cards), voids)
                like *= card_weight(choice == card, len(legal), trust)
        now.cards.append(card)
        before.add(card)
    return like


def n_legal_bids(r: int, forbidden: int) -> int:
    return len([b for b in range(r + 1) if b != forbidden])


def blind_bids_likelihood(kinds, trust, players, r, hook, me, bids, n_heard, every) -> float:
    """1 / (the legal bids) for each heard seat other than ``me``: all of them (``every``), else those the
    model's ``bids_likelihood`` leaves out (a blind model, or trust 0)."""
    from wizsim.rules.reference import forbidden_bid

    like = 1.0
    for s in range(n_heard):
        if s != me and (every or kinds[s] == MODEL_BLIND or trust <= 0.0):
            like *= 1.0 / n_legal_bids(r, forbidden_bid(hook, s, players, r, sum(bids[:s])))
    return like


def table_mixture(like_model: float, like_blind: float, doubt: float) -> tuple[float, float]:
    """(the prior-weighted sum over the two table types, the blind type's share of it)."""
    parts = {"model": (1.0 - doubt) * like_model, "blind": doubt * like_blind}
    weight = sum(parts.values())
    return (weight, parts["blind"] / weight) if weight > 0 else (0.0, 0.0)


def seat_factors(opponents, info, me, hands, bids, n_heard, named) -> list[float]:
    """Per seat, P(what it was heard doing | its model, its hand): its bid's weight against the heuristic's
    bid (net's softmax for a net seat; uniform over the legal bids when the model's bid tells nothing), times the named suit's weight for
    an opponent dealer (``named`` >= 0); 1 for ``me`` and the seats not heard. ``opponents`` a
    ``records.Opponents`` (its bid trust), ``info`` a ``records.RoundInfo``."""
    from wizsim.rules.reference import forbidden_bid

    kinds, params, table, trust = opponents.kinds, opponents.params, opponents.table, opponents.bid_trust
    players, r, hook = info.players, info.r, info.hook
    out = [1.0] * players
    for s in range(n_heard):
        if s == me:
            continue
        forbidden = forbidden_bid(hook, s, players, r, sum(bids[:s]))
        if kinds[s] != MODEL_BLIND and trust > 0.0:
            out[s] = seat_bid_weight(opponents, s, info, hands[s], bids, forbidden)[0]
        else:
            out[s] = 1.0 / n_legal_bids(r, forbidden)
    if named >= 0 and players - 1 != me:
        d = players - 1
        out[d] *= named_trump_likelihood(kinds[d], params[d], table, opponents.trump_trust, players, r, int(hands[d]),
                                         named)
    return out


def seat_blind_factors(players, r, hook, me, bids, n_heard, named) -> list[float]:
    """Per seat, P(what it was heard doing | it is blind): uniform bids, and a uniform suit for a dealer."""
    from wizsim.rules.reference import forbidden_bid

    out = [1.0] * players
    for s in range(n_heard):
        if s != me:
            out[s] = 1.0 / n_legal_bids(r, forbidden_bid(hook, s, players, r, sum(bids[:s])))
    if named >= 0 and players - 1 != me:
        out[players - 1] *= 0.25
    return out


def seat_mixture(model_f, blind_f, doubt: float, seat_doubt, me: int):
    """(weight, P(the whole table is blind | world), per seat P(it alone is blind | world, not the whole
    table)), by enumerating every set of blind seats: with prior ``doubt`` all of them, else each seat
    ``s`` with prior ``seat_doubt[s]`` independently."""
    import itertools

    others = [s for s in range(len(model_f)) if s != me]
    whole = doubt
    for s in others:
        whole *= blind_f[s]
    parts = {}
    for types in itertools.product((False, True), repeat=len(others)):
        p = 1.0 - doubt
        for s, blind in zip(others, types, strict=True):
            p *= seat_doubt[s] * blind_f[s] if blind else (1.0 - seat_doubt[s]) * model_f[s]
        parts[types] = p
    seats = sum(parts.values())
    weight = whole + seats
    post = [0.0] * len(model_f)
    for j, s in enumerate(others):
        if seats > 0:
            post[s] = sum(p for t, p in parts.items() if t[j]) / seats
    return (weight, whole / weight, post) if weight > 0 else (0.0, 0.0, post)


def play_choices(info, hands, bids, order, n_played, table=None):
    """``model.play_choices``'s twin: per card in order of play, (seat, 1 if it was the model's card in that
    seat's place else 0, the seat's legal cards then); the model the heuristic twin, or with ``table`` (a
    ``make_slots`` table holding net's weights) ``net_reference.net_card``."""
    from wizsim.policies import net_reference
    from wizsim.policies.net import NET_OFFSET

    out = []
    for s, card, choice, n, seen in _replayed_choices(info.players, hands, info.turn_up, info.trump, bids, order,
                                                      n_played, lambda s: True, info.r):
        if table is not None:
            choice = net_reference.net_card(table[NET_OFFSET:], seen)
        out.append((s, int(choice == card), n))
    return out
