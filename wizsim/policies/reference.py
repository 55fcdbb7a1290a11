"""Plain-Python twins of the policy kernels: ``policies.random_policy`` and ``policies.heuristic``
(same function names), one section each.

Random (written from issue 2's description of the policy). The random policy bids uniformly among
the allowed bids 0..r (the hook's forbidden bid left out), plays a uniformly random legal card, and as dealer on a turned-up Wizard names a uniformly random
suit. Each choice draws once from the round's play stream (``deal.reference.Stream``) and picks the
k-th item of an ascending list, which is what makes the twin consume the stream exactly as the kernel
does: for the same stream state both choose the same bid, card and suit.

Heuristic (written from the plan in ``policies.heuristic``'s docstring). Cards are ids in lists and
sets; whether a card would win is asked of the rules twin (``rules.reference.Trick``) by putting it on the trick, not computed with masks. "Power" orders
cards on their own: Jester 0 < side card (21 + rank) < trump (51 + rank) < Wizard 100; ties go to
the lowest id. The value table layout (feature indices) is the data contract shared with the kernel.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from wizsim.cards import N_CARDS, N_RANKS, card_rank, card_suit, is_jester, is_wizard
from wizsim.config import MIN_PLAYERS, n_game_rounds
from wizsim.deal.reference import Stream
from wizsim.policies.heuristic import F_EARLIER, F_JESTER, F_SEAT, F_SIDE, F_TRUMP, F_VOID, F_WIZARD, N_FEATURES
from wizsim.rules.reference import Trick

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

FAILED = -2
NO_TURN_UP = -1


def _mask_cards(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def deal_world(stream: Stream, players: int, unseen: int, needs, voids, pool: int):
    """(turned-up card, NO_TURN_UP or FAILED; the hands as masks): the unseen cards placed one by one,
    the most constrained class first, into an allowed slot (seats, pile ``players``, turned-up card
    ``players + 1``) with chance proportional to its capacity left, the deal kept with chance
    prod(D / B) (D: allowed capacity when placed, B its bound)."""
    cards = _mask_cards(unseen)
    pool &= unseen
    cap = [int(needs[s]) for s in range(players)] + [0, 1 if pool else 0]
    cap[players] = len(cards) - sum(cap[:players]) - cap[players + 1]
    hands = [0] * players
    if cap[players] < 0:
        return FAILED, hands

    def klass(c):
        group = card_suit(c) if card_suit(c) >= 0 else 4
        return 2 * group + (pool >> c & 1)

    def slots(k):
        group = k // 2
        out = [s for s in range(players) if group == 4 or not voids[s] >> group & 1] + [players]
        return out + [players + 1] if k & 1 else out

    allowed = {k: sum(cap[j] for j in slots(k)) for k in range(10)}
    weight = 1.0
    left = len(cards)
    turn_up = NO_TURN_UP
    for k in sorted(range(10), key=lambda k: (allowed[k], k)):
        for j_in_class, c in enumerate(x for x in cards if klass(x) == k):
            ok = slots(k)
            d = sum(cap[j] for j in ok)
            if d == 0:
                return FAILED, hands
            bound = min(left, allowed[k] - j_in_class)
            if d != bound:
                weight *= d / bound
            u = stream.rand_below(d)
            for j in ok:
                if u < cap[j]:
                    slot = j
                    break
                u -= cap[j]
            cap[slot] -= 1
            if slot < players:
                hands[slot] |= 1 << c
            elif slot == players + 1:
                turn_up = c
            left -= 1
    if weight < 1.0 and (stream.next_u64() >> 11) * 2.0 ** -53 >= weight:
        return FAILED, hands
    return turn_up, hands


def draw_world(stream, players: int, me: int, hand: int, unseen: int, needs, voids, pool: int, max_tries: int):
    """(turned-up card or FAILED, world): ``deal_world`` until it finds a deal; a turned-up card known in
    ``pool`` (not unseen) is the one."""
    known = NO_TURN_UP
    if pool and not pool & unseen:
        known = (pool & -pool).bit_length() - 1
    for _ in range(max_tries):
        tu, world = deal_world(stream, players, unseen, needs, voids, pool)
        if tu != FAILED:
            world[me] = hand
            return (known if known != NO_TURN_UP else tu), world
    return FAILED, [0] * players


def sample_world(stream, players, r, me, hand, unseen, needs, voids, pool, seat_played, trump, bids, hook, n_heard,
                 kinds, mparams, table, trust, trump_evidence, max_tries):
    """(turned-up card, tries, world): worlds drawn until one is kept with chance likelihood / bound, the
    likelihood and its bound from the model's twins; after ``max_tries`` the likeliest one drawn."""
    from wizsim.rules.reference import forbidden_bid

    dealer = players - 1
    bound = 1.0
    for s in range(n_heard):
        if s != me and kinds[s] != MODEL_BLIND and trust > 0:
            bound *= max_bid_weight(bids[s], r, forbidden_bid(hook, s, players, r, sum(bids[:s])), trust)
    if trump_evidence and trust > 0:
        bound *= trump_weight([0], 0, trust)
    best = (-1.0, FAILED, [0] * players)
    for t in range(max_tries):
        tu, world = draw_world(stream, players, me, hand, unseen, needs, voids, pool, 1)
        if tu == FAILED:
            continue
        whole = [int(world[s]) | int(seat_played[s]) for s in range(players)]
        like, _ = bids_likelihood(kinds, mparams, table, trust, players, r, hook, me, whole, tu, trump, bids, n_heard)
        if trump_evidence:
            like *= named_trump_likelihood(kinds[dealer], mparams[dealer], table, trust, players, r, whole[dealer],
                                           trump)
        if (stream.next_u64() >> 11) * 2.0 ** -53 * bound < like:
            return tu, t + 1, world
        if like > best[0]:
            best = (like, tu, list(world))
    if best[1] == FAILED:
        tu, world = draw_world(stream, players, me, hand, unseen, needs, voids, pool, 100_000)
        return tu, max_tries, world
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


# --- search (``policies.search``), written from its docstring ---

Z95 = 1.959963984540054


def _pick(scores: list[list[float]], doublings_left: int, stream: Stream) -> tuple[int, bool]:
    """(best column by mean, whether to sample more first): more while doublings are left and the best
    does not beat the runner-up by a paired 95% interval, unless the two scored alike on every world;
    ties between the best broken uniformly from ``stream``."""
    n, k = len(scores), len(scores[0])
    sums = [sum(row[j] for row in scores) for j in range(k)]
    top = max(range(k), key=lambda j: (sums[j], -j))
    second = max((j for j in range(k) if j != top), key=lambda j: (sums[j], -j))
    if doublings_left > 0 and n > 1:
        mean = (sums[top] - sums[second]) / n
        ss = 0.0
        for row in scores:
            ss += (row[top] - row[second] - mean) ** 2
        if not (mean == 0 and ss == 0) and mean <= Z95 * math.sqrt(ss / (n - 1) / n):
            return top, True
    tied = [j for j in range(k) if sums[j] == sums[top]]
    return (top, False) if len(tied) == 1 else (tied[stream.rand_below(len(tied))], False)


def _world(stream, params, table, players, r, me, hand, unseen, needs, voids, pool, seat_played, trump, bids, hook,
           n_heard, trump_evidence):
    """One world for the search policy: every other seat modelled as the heuristic with its bid_shift."""
    kinds = [0 if s == me else 1 for s in range(players)]
    return sample_world(stream, players, r, me, hand, unseen, needs, voids, pool, seat_played, trump, bids, hook,
                        n_heard, kinds, [params] * players, table, params[SEARCH_P_BID_TRUST], trump_evidence,
                        SEARCH_MAX_TRIES)[2]


SEARCH_MAX_TRIES = 200  # mirror of policies.search.MAX_TRIES
SEARCH_P_BID_TRUST = 3  # mirror of policies.search.P_BID_TRUST


def _search(params, stream, n_cands, evaluate, draw_world):
    """Worlds in batches of ``params[1]``, doubled up to ``params[2]`` times on a close call."""
    base, doublings = int(params[1]), int(params[2])
    scores: list[list[float]] = []
    target = base
    while True:
        while len(scores) < target:
            world = draw_world()
            scores.append([evaluate(world, j) for j in range(n_cands)])
        j, more = _pick(scores, doublings, stream)
        if not more:
            return j
        doublings -= 1
        target = 2 * len(scores)


def _later_bids(params, table, players, r, hook, world, trump, bids, first):
    from wizsim.rules.reference import forbidden_bid

    bids = list(bids)
    for s in range(first, players):
        bids[s] = heuristic_bid(params, table, s, players, r, _mask_cards(world[s]), trump, bids,
                                forbidden_bid(hook, s, players, r, sum(bids[:s])))
    return bids


def search_card(params, table, seat, players, r, hook, hand: int, legal: int, turn_up, trump, bids, tricks,
                seat_played, played: int, trick_cards, n_in_trick, voids, stream: Stream) -> int:
    from wizsim.rules.reference import score_round

    cands = _mask_cards(legal)
    if len(cands) == 1:
        return cands[0]
    known = hand | played | (1 << turn_up if turn_up >= 0 else 0)
    pool = 1 << turn_up if turn_up >= 0 else 0
    unseen = ((1 << N_CARDS) - 1) & ~known
    needs = [0 if s == seat else r - bin(int(seat_played[s])).count("1") for s in range(players)]
    trump_evidence = seat != players - 1 and 52 <= turn_up < 56
    leader = (seat - n_in_trick) % players

    def draw_world():
        return _world(stream, params, table, players, r, seat, hand, unseen, needs, voids, pool, seat_played, trump,
                      bids, hook, players, trump_evidence)

    def evaluate(world, j):
        hands = [set(_mask_cards(int(world[s]))) for s in range(players)]
        hands[seat].discard(cands[j])
        trick = list(trick_cards[:n_in_trick]) + [cands[j]]
        vd = [{k for k in range(4) if int(voids[s]) >> k & 1} for s in range(players)]
        led = Trick(trump, list(trick_cards[:n_in_trick])).led
        if led >= 0 and card_suit(cands[j]) >= 0 and card_suit(cands[j]) != led:
            vd[seat].add(led)
        got = heuristic_tricks(players, turn_up, trump, hands, bids, tricks, vd, trick, leader,
                               _mask_cards(played) + [cands[j]])
        return score_round(bids[seat], got[seat])

    return cands[_search(params, stream, len(cands), evaluate, draw_world)]


def search_bid(params, table, seat, players, r, hook, hand: int, turn_up, trump, bids, forbidden, stream) -> int:
    from wizsim.rules.reference import score_round

    cands = [b for b in range(r + 1) if b != forbidden]
    if len(cands) == 1:
        return cands[0]
    pool = 1 << turn_up if turn_up >= 0 else 0
    unseen = ((1 << N_CARDS) - 1) & ~(hand | pool)
    needs = [0 if s == seat else r for s in range(players)]
    trump_evidence = seat != players - 1 and 52 <= turn_up < 56

    def draw_world():
        return _world(stream, params, table, players, r, seat, hand, unseen, needs, [0] * players, pool,
                      [0] * players, trump, bids, hook, seat, trump_evidence)

    def evaluate(world, j):
        bb = list(bids)
        bb[seat] = cands[j]
        bb = _later_bids(params, table, players, r, hook, world, trump, bb, seat + 1)
        got = heuristic_tricks(players, turn_up, trump, [set(_mask_cards(int(h))) for h in world], bb, [0] * players,
                               [set() for _ in range(players)], [], 0, [])
        return score_round(bb[seat], got[seat])

    return cands[_search(params, stream, len(cands), evaluate, draw_world)]


def search_trump(params, table, players, r, hook, hand: int, turn_up, stream) -> int:
    from wizsim.rules.reference import score_round

    dealer = players - 1
    unseen = ((1 << N_CARDS) - 1) & ~(hand | 1 << turn_up)
    needs = [r] * dealer + [0]

    trustless = list(params)
    trustless[SEARCH_P_BID_TRUST] = 0.0  # the dealer names the trump before any bid: nothing to weigh

    def draw_world():
        return _world(stream, trustless, table, players, r, dealer, hand, unseen, needs, [0] * players, 1 << turn_up,
                      [0] * players, 0, [-1] * players, hook, 0, False)

    def evaluate(world, t):
        bb = _later_bids(params, table, players, r, hook, world, t, [-1] * players, 0)
        got = heuristic_tricks(players, turn_up, t, [set(_mask_cards(int(h))) for h in world], bb, [0] * players,
                               [set() for _ in range(players)], [], 0, [])
        return score_round(bb[dealer], got[dealer])

    return _search(params, stream, 4, evaluate, draw_world)


# --- the opponents' model (policies.model), written from its docstring ---

MODEL_BLIND = 0


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


def bids_likelihood(kinds, params, table, trust, players, r, hook, me, hands, turn_up, trump, bids, n_heard):
    """(likelihood, model bids) of the first ``n_heard`` heard bids; ``hands[s]`` a mask of seat s's cards."""
    from wizsim.rules.reference import forbidden_bid

    like = 1.0
    model_bids = [-1] * players
    for s in range(n_heard):
        forbidden = forbidden_bid(hook, s, players, r, sum(bids[:s]))
        if s != me and kinds[s] != MODEL_BLIND and trust > 0.0:
            m = heuristic_bid(params[s], table, s, players, r, _mask_cards(int(hands[s])), trump, bids, forbidden)
            model_bids[s] = m
            like *= bid_weight(m, bids[s], r, forbidden, trust)
    return like, model_bids


def named_trump_likelihood(kind, params, table, trust, players, r, dealer_hand: int, named: int) -> float:
    if kind == MODEL_BLIND or trust <= 0.0:
        return 1.0
    return trump_weight(heuristic_trump_choices(params, table, players, r, _mask_cards(dealer_hand)), named, trust)


def play_likelihood(kinds, trust, players, r, me, hands, turn_up, trump, bids, order, n_played) -> float:
    """Replay the cards trick by trick with the rules twin; each card of a modelled seat other than
    ``me`` is weighed against the heuristic twin's choice in that seat's place."""
    from wizsim.rules.reference import Trick

    if trust <= 0.0:
        return 1.0
    held = [set(_mask_cards(int(h))) for h in hands]
    voids: list[set[int]] = [set() for _ in range(players)]
    tricks = [0] * players
    played: list[int] = []
    like = 1.0
    trick = Trick(trump=trump)
    leader = 0
    for card in [int(c) for c in order[:n_played]]:
        if len(trick.cards) == players:
            leader = (leader + trick.winner()) % players
            tricks[leader] += 1
            trick = Trick(trump=trump)
        s = (leader + len(trick.cards)) % players
        if s != me and kinds[s] != MODEL_BLIND:
            legal = [c for c in sorted(held[s]) if trick.may_play(held[s], c)]
            choice = heuristic_card(s, players, sorted(held[s]), legal, turn_up, trump, bids[s] - tricks[s], played,
                                    list(trick.cards), voids)
            like *= card_weight(choice == card, len(legal), trust)
        led = trick.led
        if led >= 0 and card_suit(card) >= 0 and card_suit(card) != led:  # a suited card off the led suit
            voids[s].add(led)
        held[s].discard(card)
        trick.cards.append(card)
        played.append(card)
    return like
