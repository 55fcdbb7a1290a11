"""The policy interface inside the round kernel: one entry per decision, dispatching on a policy kind.

A *slot* is a policy configuration: a kind (``RANDOM`` ...) and a row of float parameters. Seats
point at slots, so two seats may run the same kind with different parameters. Kernels cannot take
function pointers cheaply under ``prange``, so the kind is an int and dispatch is an ``if`` chain
that Numba inlines.

What a policy is shown is exactly what its player may see (RULES.md: bids are public, played cards
and the turned-up card are seen by all); nothing else is passed in, which is what keeps a policy
honest. Seats are 0-based here (index 0 = seat 1, the last index is the dealer).

choose_bid(kind, params, table, seat, players, r, hook, hand, turn_up, trump, bids, forbidden, rng)
    bids: (players,) int8, -1 for seats yet to bid; forbidden: the hook's forbidden bid or -1.
choose_card(kind, params, table, seat, players, r, hook, hand, legal, turn_up, trump, bids, tricks,
            seat_played, played, trick_cards, n_in_trick, led, winning_pos, voids, rng)
    legal: mask of the legal cards (never empty); tricks: (players,) int8 taken so far;
    seat_played: (players,) uint64, the cards each seat has played this round (who played what is
    public: seat 1 leads trick one and the rules say who leads each next one);
    played: mask of every card played this round, the current trick included;
    trick_cards: (players,) int8, the current trick in order of play, n_in_trick of them;
    led: the led code (rules.kernels); winning_pos: index in trick_cards of the card winning so far
    (-1 on an empty trick); voids: (players,) uint8, bit s set when that seat has shown it lacks suit s.
choose_trump(kind, params, table, players, r, hook, hand, turn_up, rng)
    the dealer's suit 0..3 on the turned-up Wizard ``turn_up``.
trump_choices(kind, params, table, players, r, hand)
    the suits (mask, bit s for suit s) among which ``choose_trump`` picks uniformly: what a named
    suit tells about the dealer's hand (the exact round-1 advisor weighs deals by it).

Each ``choose_*`` has a ``choose_*_light`` twin with the same arguments for every kind but the search
policy: a kernel that cannot meet a search seat calls those (the round kernel picks per round). The
compiler folds the search policy's large code into whatever calls it, and a loop that carries it runs
at two thirds of its speed even where it never takes that branch.
"""

from __future__ import annotations

from wizsim._jit import inline_kernel
from wizsim.policies.heuristic import heuristic_bid, heuristic_card, heuristic_trump, heuristic_trump_choices
from wizsim.policies.random_policy import random_bid, random_card, random_trump
from wizsim.policies.search import search_bid, search_card, search_trump

RANDOM = 0
HEURISTIC = 1
SEARCH = 2
KINDS = (RANDOM, HEURISTIC, SEARCH)  # a kind without its branch below would play as random: the registry refuses it


@inline_kernel
def choose_bid(kind, params, table, seat, players, r, hook, hand, turn_up, trump, bids, forbidden, rng):
    if kind == SEARCH:
        return search_bid(params, table, seat, players, r, hook, hand, turn_up, trump, bids, forbidden, rng)
    return choose_bid_light(kind, params, table, seat, players, r, hook, hand, turn_up, trump, bids, forbidden, rng)


@inline_kernel
def choose_bid_light(kind, params, table, seat, players, r, hook, hand, turn_up, trump, bids, forbidden, rng):
    if kind == HEURISTIC:
        return heuristic_bid(params, table, seat, players, r, hand, turn_up, trump, bids, forbidden)
    return random_bid(r, forbidden, rng)


@inline_kernel
def choose_card(kind, params, table, seat, players, r, hook, hand, legal, turn_up, trump, bids, tricks,
                seat_played, played, trick_cards, n_in_trick, led, winning_pos, voids, rng):
    if kind == SEARCH:
        return search_card(params, table, seat, players, r, hook, hand, legal, turn_up, trump, bids, tricks,
                           seat_played, played, trick_cards, n_in_trick, voids, rng)
    return choose_card_light(kind, params, table, seat, players, r, hook, hand, legal, turn_up, trump, bids, tricks,
                             seat_played, played, trick_cards, n_in_trick, led, winning_pos, voids, rng)


@inline_kernel
def choose_card_light(kind, params, table, seat, players, r, hook, hand, legal, turn_up, trump, bids, tricks,
                      seat_played, played, trick_cards, n_in_trick, led, winning_pos, voids, rng):
    if kind == HEURISTIC:
        return heuristic_card(seat, players, hand, legal, turn_up, trump, bids[seat] - tricks[seat], played,
                              trick_cards[max(winning_pos, 0)], n_in_trick, led, voids)
    return random_card(legal, rng)


@inline_kernel
def choose_trump(kind, params, table, players, r, hook, hand, turn_up, rng):
    if kind == SEARCH:
        return search_trump(params, table, players, r, hook, hand, turn_up, rng)
    return choose_trump_light(kind, params, table, players, r, hook, hand, turn_up, rng)


@inline_kernel
def choose_trump_light(kind, params, table, players, r, hook, hand, turn_up, rng):
    if kind == HEURISTIC:
        return heuristic_trump(params, table, players, r, hand, rng)
    return random_trump(rng)


@inline_kernel
def any_search(players, seat_slot, slot_kind):
    """Whether a seat of the table plays the search policy (else the ``_light`` deciders serve it)."""
    found = False
    for s in range(players):
        found |= slot_kind[seat_slot[s]] == SEARCH
    return found


# The trick loop's choosers (``rollout.play_tricks``): the card of the policy in the seat, ``ctx`` =
# (r, hook, seat_slot, slot_kind, slot_params, table, rng).


@inline_kernel
def seat_card(ctx, seat, players, hand, legal, turn_up, trump, bids, tricks, seat_played, played, trick_cards,
              n_in_trick, led, winning_pos, voids):
    r, hook, seat_slot, slot_kind, slot_params, table, rng = ctx
    slot = seat_slot[seat]
    return choose_card(slot_kind[slot], slot_params[slot], table, seat, players, r, hook, hand, legal, turn_up, trump,
                       bids, tricks, seat_played, played, trick_cards, n_in_trick, led, winning_pos, voids, rng)


@inline_kernel
def seat_card_light(ctx, seat, players, hand, legal, turn_up, trump, bids, tricks, seat_played, played,
                    trick_cards, n_in_trick, led, winning_pos, voids):
    r, hook, seat_slot, slot_kind, slot_params, table, rng = ctx
    slot = seat_slot[seat]
    return choose_card_light(slot_kind[slot], slot_params[slot], table, seat, players, r, hook, hand, legal, turn_up,
                             trump, bids, tricks, seat_played, played, trick_cards, n_in_trick, led, winning_pos,
                             voids, rng)


ALL_SUITS = 0b1111


@inline_kernel
def trump_choices(kind, params, table, players, r, hand):
    if kind == HEURISTIC or kind == SEARCH:  # search: the heuristic's choices stand in (see worlds)
        return heuristic_trump_choices(params, table, players, r, hand)
    return ALL_SUITS
