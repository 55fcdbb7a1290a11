"""Plain-Python twin of the round and game kernels (``sim.round.play_round``, ``sim.kernels``).

Written from docs/rules.md with lists, sets and the ``Trick`` class of ``rules.reference``: deal and
turn-up (section 2), trump (section 3), bids in seat order with the optional hook (section 4), r
tricks led by seat 1 and then by each trick's winner (section 5), scores (section 6). The only thing
taken from the kernels is the order in which random numbers are drawn, because the twin must make
the same choices from the same streams:

- the deal stream (``deal.reference.deal_round``) deals the hands and the turned-up card;
- the play stream feeds, in this order, the dealer's suit on a turned-up Wizard, then the bids of
  seats 1..players (a bid fixed in advance draws nothing), then every card in order of play.

For the random policy in every seat and the same (seed, round index, players, r, hook, fixed inputs)
the twin yields the same hands, turned-up card, trump, bids, tricks, scores and play log as the
kernel. It is slow on purpose (every legal-play test goes through ``Trick.may_play``): it is the
yardstick of correctness and the baseline of the benchmark's speed-up figure.

The twins of the advisor's kernels, which play rounds through this twin, are in
``advisor.kernels.reference``.

Entry points: ``play_round`` (one round from two streams), ``simulate_rounds_reference`` (rounds
``first_index ..`` of a run, like ``simulate_rounds``), ``simulate_games_reference`` (whole games,
like ``simulate_games``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wizsim.cards import FULL_DECK_MASK, N_CARDS, NO_CARD, NO_TRUMP
from wizsim.config import n_game_rounds
from wizsim.deal.reference import DEAL_STREAM, GAME_STREAM, PLAY_STREAM, Stream, deal_round, stream_key
from wizsim.policies.reference import random_bid, random_card, random_trump
from wizsim.rules.reference import DEALER_NAMES, Trick, forbidden_bid, score_round, trump_of_turn_up

FULL_DECK = int(FULL_DECK_MASK)
# Mirrors of sim.round's constants: the twin does not import the kernel module it checks.
BID_FREE = 0
BID_FORCED = 1
BID_CONDITION = 2
TRUMP_BY_RULES = -2


def _cards(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


@dataclass
class RoundRecord:
    """Everything one round produced, seats 0-based (index 0 = seat 1, the last one deals)."""

    players: int
    r: int
    hands: list[int]  # hand masks as dealt, by seat
    turn_up: int  # card id, -1 in the last round
    trump: int  # -1..3
    bids: list[int]  # -1 for seats that did not bid (a rejected round stops at the rejecting seat)
    tricks: list[int]
    scores: list[int]
    accepted: bool
    log_cards: list[int] = field(default_factory=list)  # r * players cards in order of play
    log_leader: list[int] = field(default_factory=list)  # seat that led each trick
    log_winner: list[int] = field(default_factory=list)  # seat that won each trick

    @property
    def n_plays(self) -> int:
        return len(self.log_cards)


def round_trump(turn_up: int, fixed_trump: int, dealer_hand: list[int], play: Stream) -> int:
    """Trump by docs/rules.md 3 (``rules.reference.trump_of_turn_up``); on a Wizard the dealer (here the
    random policy) names a suit. ``fixed_trump`` -1..3 overrides the turned-up card (the advisor's
    given trump), never the last round's "none"."""
    if turn_up == NO_CARD:
        return NO_TRUMP
    if fixed_trump != TRUMP_BY_RULES:
        return fixed_trump
    trump = trump_of_turn_up(turn_up)
    return random_trump(play) if trump == DEALER_NAMES else trump


def play_round(players: int, r: int, hook: bool, deal: Stream, play: Stream, *, fixed_hands=None,
               turn_up_pool: int = FULL_DECK, fixed_trump: int = TRUMP_BY_RULES, bid_mode=None,
               fixed_bids=None) -> RoundRecord:
    """One round with the random policy in every seat, drawing from the streams ``deal`` and ``play``.

    ``fixed_hands`` (hand masks by seat, 0 = deal), ``turn_up_pool``, ``fixed_trump``, ``bid_mode``
    and ``fixed_bids`` mean what they mean for ``sim.round.play_round``.
    """
    fixed_hands = [0] * players if fixed_hands is None else [int(h) for h in fixed_hands]
    bid_mode = [BID_FREE] * players if bid_mode is None else [int(m) for m in bid_mode]
    fixed_bids = [0] * players if fixed_bids is None else [int(b) for b in fixed_bids]
    dealer = players - 1

    turn_up, hand_masks = deal_round(deal, players, r, fixed_hands, int(turn_up_pool))
    hands = [set(_cards(m)) for m in hand_masks]
    trump = round_trump(turn_up, fixed_trump, sorted(hands[dealer]), play)

    bids = [-1] * players
    made: list[int] = []
    for seat in range(players):
        if bid_mode[seat] == BID_FORCED:
            bid = fixed_bids[seat]
        else:
            bid = random_bid(r, forbidden_bid(hook, seat, players, r, sum(made)), play)
            if bid_mode[seat] == BID_CONDITION and bid != fixed_bids[seat]:
                return RoundRecord(players, r, list(hand_masks), turn_up, trump, bids, [0] * players,
                                   [0] * players, False)
        bids[seat] = bid
        made.append(bid)

    tricks = [0] * players
    log_cards: list[int] = []
    log_leader: list[int] = []
    log_winner: list[int] = []
    leader = 0  # seat 1 leads the first trick
    for _ in range(r):
        trick = Trick(trump=trump)
        for i in range(players):
            seat = (leader + i) % players
            legal = [c for c in hands[seat] if trick.may_play(hands[seat], c)]
            card = random_card(legal, play)
            hands[seat].remove(card)
            trick.cards.append(card)
        winner = (leader + trick.winner()) % players
        tricks[winner] += 1
        log_cards.extend(trick.cards)
        log_leader.append(leader)
        log_winner.append(winner)
        leader = winner  # the winner leads the next trick

    scores = [score_round(b, t) for b, t in zip(bids, tricks, strict=True)]
    return RoundRecord(players, r, list(hand_masks), turn_up, trump, bids, tricks, scores, True,
                       log_cards, log_leader, log_winner)


def round_streams(seed: int, index: int) -> tuple[Stream, Stream]:
    """The deal and play streams of round ``index`` of the run ``seed``."""
    return Stream(stream_key(seed, index, DEAL_STREAM)), Stream(stream_key(seed, index, PLAY_STREAM))


def simulate_rounds_reference(players: int, r: int, n_rounds: int, seed: int, hook: bool = False,
                              first_index: int = 0, **fixed) -> list[RoundRecord]:
    """Rounds ``first_index .. first_index + n_rounds - 1`` of the run ``seed``, random policy in every
    seat: the twin of ``wizsim.simulate_rounds(players, r, n_rounds, seed=seed, hook=hook,
    first_index=first_index, trick_log=True, **fixed)``. ``fixed`` takes ``play_round``'s keywords."""
    out = []
    for index in range(first_index, first_index + n_rounds):
        deal, play = round_streams(seed, index)
        out.append(play_round(players, r, hook, deal, play, **fixed))
    return out


@dataclass
class GameRecord:
    """One whole game: rounds 1..60/players, the deal passing left."""

    players: int
    first_dealer: int  # the player (identity 0..players-1) who deals round 1
    rounds: list[RoundRecord]

    def seat_player(self, k: int) -> list[int]:
        """Player in each seat of round k (0-based): seat 1 sits left of the dealer, who deals
        round k as the player ``first_dealer + k``, so the deal passes left."""
        dealer = (self.first_dealer + k) % self.players
        return [(dealer + 1 + s) % self.players for s in range(self.players)]

    def scores_by_player(self) -> list[list[int]]:
        out = []
        for k, rnd in enumerate(self.rounds):
            row = [0] * self.players
            for seat, player in enumerate(self.seat_player(k)):
                row[player] = rnd.scores[seat]
            out.append(row)
        return out

    def totals(self) -> list[list[int]]:
        """Running totals by player after each round."""
        running = [0] * self.players
        out = []
        for row in self.scores_by_player():
            running = [a + b for a, b in zip(running, row, strict=True)]
            out.append(list(running))
        return out

    def winners(self) -> list[int]:
        """The players with the highest final total; ties are shared."""
        final = self.totals()[-1]
        return [p for p, t in enumerate(final) if t == max(final)]


def simulate_games_reference(players: int, n_games: int, seed: int, hook: bool = False,
                             first_game: int = 0) -> list[GameRecord]:
    """Whole games ``first_game ..`` of the run ``seed``: the twin of ``wizsim.simulate_games``.

    Game g draws its first dealer from its own stream; its round k (0-based) is round index
    ``g * R + k`` of the run, R = 60 / players.
    """
    rounds_per_game = n_game_rounds(players)
    out = []
    for g in range(first_game, first_game + n_games):
        first_dealer = Stream(stream_key(seed, g, GAME_STREAM)).rand_below(players)
        rounds = []
        for k in range(rounds_per_game):
            deal, play = round_streams(seed, g * rounds_per_game + k)
            rounds.append(play_round(players, k + 1, hook, deal, play))
        out.append(GameRecord(players, first_dealer, rounds))
    return out
