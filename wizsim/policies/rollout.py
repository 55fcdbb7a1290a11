"""Tricks from any point of a round: the one trick loop, its bookkeeping, and the heuristic play-out.

A round in progress is held in a few arrays (0-based seats, index 0 = seat 1):

- ``live`` (players,) uint64: the cards each seat still holds;
- ``seat_played`` (players,) uint64: the cards each seat has played this round (the current trick too);
- ``tricks`` (players,) int8: completed tricks taken; ``bids`` (players,) int8;
- ``voids`` (players,) int8: bit s set when the seat has shown it holds no card of suit s;
- ``trick_cards`` (players,) int8: the current trick in order of play, ``n`` of them, led by ``leader``;

plus the scalars the trick's winner so far needs: the led code, the best strength and its position.
``trick_status`` rebuilds those from the trick's cards, so a loop can start in the middle of a trick.

``play_tricks`` is the one trick loop: the round kernel's (every table but one of random players only),
play advice's evaluator (``sim.tricks``), the search policy's play-outs and the opponents' model's
replay of the cards seen all run it, each with its own way of choosing a card. ``play_card`` and
``close_trick`` are the one copy of what playing a card does to that state (the open table calls them
too). ``heuristic_tricks`` plays the rest of a round with the heuristic in every seat: the search
policy's rollout. It chooses through the heuristic directly rather than through ``dispatch`` so that
the search policy (which ``dispatch`` reaches) can run it without the kernels calling themselves.
"""

from __future__ import annotations

from wizsim._jit import inline_kernel, kernel
from wizsim.bits import bit, popcount
from wizsim.cards import N_RANKS, N_SUITED
from wizsim.policies.heuristic import heuristic_card
from wizsim.rules.kernels import LED_NONE, STRENGTH, legal_mask, next_led


@kernel
def trick_status(trick_cards, n, trump):
    """(led code, best strength, position of the winning card; -1 on an empty trick) of ``trick_cards[:n]``."""
    led = LED_NONE
    best = -1
    win_pos = -1
    for i in range(n):
        card = trick_cards[i]
        led = next_led(led, card)
        strength = STRENGTH[trump + 1, led + 2, card]
        if strength > best:
            best = strength
            win_pos = i
    return led, best, win_pos


@inline_kernel
def play_card(s, card, i, led, best, win_pos, trump, live, seat_played, voids, trick_cards):
    """Seat ``s`` plays ``card`` as the trick's ``i``-th card: it leaves the hand, joins the seat's played
    cards and the trick, and a suited card off the led suit shows a void. Returns the new
    (led, best, win_pos)."""
    b = bit(card)
    live[s] &= ~b
    seat_played[s] |= b
    trick_cards[i] = card
    off_suit = led >= 0 and card < N_SUITED and card // N_RANKS != led
    voids[s] |= off_suit << max(led, 0)
    led = next_led(led, card)
    strength = STRENGTH[trump + 1, led + 2, card]
    if strength > best:
        return led, strength, i
    return led, best, win_pos


@inline_kernel
def close_trick(players, leader, win_pos, tricks):
    """The complete trick goes to its winner, who leads next: returns the winner's seat."""
    winner = leader + win_pos
    if winner >= players:
        winner -= players
    tricks[winner] += 1
    return winner


@inline_kernel
def play_tricks(choose, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids, trick_cards, n,
                leader, played, end, want_log, log_cards, log_leader, log_winner):
    """The one trick loop: play on from the given state (``n`` cards of the current trick down, led by
    ``leader``; ``played`` the mask of every card played this round) until ``end`` cards of the round
    are down (the round's last card, or a point in the middle of it), the arrays advanced in place. A
    trick complete at the start or at ``end`` goes to its winner.

    Each card is ``choose(ctx, seat, players, hand, legal, turn_up, trump, bids, tricks, seat_played,
    played, trick_cards, n_in_trick, led, win_pos, voids)``: ``choose`` is a kernel and ``ctx`` the
    data it needs besides the round's state (the seats' policies and the play stream for
    ``dispatch.seat_card``; nothing for the heuristic's play-out). Numba compiles the loop once for
    each ``choose``, so a table that cannot reach the search policy never carries its code.

    want_log : bool; log_cards (r * players,) int8 gets each card at its place in the order of play,
    log_leader, log_winner (r,) int8 each trick's leader and winner as the trick closes (any int8
    arrays when not want_log)."""
    led, best, win_pos = trick_status(trick_cards, n, trump)
    k = popcount(played)
    while True:
        stop = min(players, n + end - k)
        for i in range(n, stop):
            s = leader + i
            if s >= players:
                s -= players
            hand = live[s]
            legal = legal_mask(hand, led)
            card = choose(ctx, s, players, hand, legal, turn_up, trump, bids, tricks, seat_played, played,
                          trick_cards, i, led, win_pos, voids)
            played |= bit(card)
            led, best, win_pos = play_card(s, card, i, led, best, win_pos, trump, live, seat_played, voids,
                                           trick_cards)
            if want_log:
                log_cards[k] = card
            k += 1
        if stop < players:  # ``end`` falls inside this trick
            return
        winner = close_trick(players, leader, win_pos, tricks)
        if want_log:
            t = k // players - 1
            log_leader[t] = leader
            log_winner[t] = winner
        if k >= end:
            return
        leader = winner
        n = 0
        led = LED_NONE
        best = -1
        win_pos = -1


@inline_kernel
def _heuristic_choice(ctx, seat, players, hand, legal, turn_up, trump, bids, tricks, seat_played, played,
                      trick_cards, n_in_trick, led, win_pos, voids):
    """``play_tricks``'s ``choose`` with the heuristic in every seat (``ctx`` unused)."""
    return heuristic_card(seat, players, hand, legal, turn_up, trump, bids[seat] - tricks[seat], played,
                          trick_cards[max(win_pos, 0)], n_in_trick, led, voids)


@kernel
def heuristic_tricks(players, turn_up, trump, live, bids, tricks, seat_played, voids, trick_cards, n, leader,
                     played):
    """Play the round to its end from the given state (``n`` cards of the current trick down, ``leader``
    led it; ``played`` the mask of every card played so far) with the heuristic in every seat. The
    arrays are advanced in place; ``tricks`` then holds each seat's tricks for the round."""
    end = popcount(played)
    for s in range(players):
        end += popcount(live[s])
    play_tricks(_heuristic_choice, 0, players, turn_up, trump, live, bids, tricks, seat_played, voids, trick_cards,
                n, leader, played, end, False, trick_cards, trick_cards, trick_cards)
