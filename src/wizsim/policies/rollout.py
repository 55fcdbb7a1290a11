"""Tricks from any point of a round: the one trick loop, its bookkeeping, and the heuristic play-out.

A round in progress is held in a ``records.RoundState`` (the cards each seat holds and has played, the
voids shown, the current trick, the bids and tricks taken) and a ``records.RoundInfo`` (the table, the
round size, the turned-up card and trump), plus the scalars the trick's winner so far needs: the led
code, the best strength and its position. ``trick_status`` rebuilds those from the trick's cards, so a
loop can start in the middle of a trick.

``play_tricks`` is the one trick loop: the round kernel's (every table but one of random players only),
play advice's evaluator (``advisor.kernels.playouts``), the search policy's play-outs and the opponents' model's
replay of the cards seen all run it, each with its own way of choosing a card. ``play_card`` and
``close_trick`` are the one copy of what playing a card does to that state (the open table calls them
too). ``heuristic_tricks`` plays the rest of a round with the heuristic in every seat: the search
policy's rollout (``net_tricks`` the same with net in every seat: ``search:rollout=net``). They choose
through the heuristic (net) directly rather than through ``dispatch`` so that the search policy (which
``dispatch`` reaches) can run them without the kernels calling themselves.
"""

from __future__ import annotations

from wizsim._numba import inline_kernel, kernel
from wizsim.bits import bit, popcount
from wizsim.cards import N_RANKS, N_SUITED
from wizsim.policies.heuristic import heuristic_obs_card
from wizsim.policies.net import net_card
from wizsim.policies.observation import observe
from wizsim.policies.records import Log
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
def play_card(state, trump, s, card, i, led, best, win_pos):
    """Seat ``s`` plays ``card`` as the trick's ``i``-th card: it leaves the hand, joins the seat's played
    cards and the trick, and a suited card off the led suit shows a void (``state`` a
    ``records.RoundState``, advanced in place). Returns the new (led, best, win_pos)."""
    b = bit(card)
    state.live[s] &= ~b
    state.seat_played[s] |= b
    state.trick_cards[i] = card
    off_suit = led >= 0 and card < N_SUITED and card // N_RANKS != led
    state.voids[s] |= off_suit << max(led, 0)
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
def play_tricks(choose, ctx, info, state, n, leader, played, end, log):
    """The one trick loop: play on from the given state (``info`` the round's ``records.RoundInfo``,
    ``state`` its ``records.RoundState``; ``n`` cards of the current trick down, led by ``leader``;
    ``played`` the mask of every card played this round) until ``end`` cards of the round are down (the
    round's last card, or a point in the middle of it), the state advanced in place. A trick complete
    at the start or at ``end`` goes to its winner.

    Each card is ``choose(ctx, obs)``: ``obs`` the deciding seat's observation record
    (``policies.observation.Obs``), ``choose`` a kernel and ``ctx`` the data it needs besides (the
    seats' policies and the play stream for ``dispatch.seat_card``; nothing for the heuristic's
    play-out). Numba compiles the loop once for each ``choose`` and type of ``ctx``, so a table that
    cannot reach the search policy never carries its code.

    log : a ``records.Log``; its cards get each card at its place in the order of play, its leader and
    winner each trick's leader and winner as the trick closes (written only when ``log.want``)."""
    players, trump = info.players, info.trump
    live, trick_cards = state.live, state.trick_cards
    led, best, win_pos = trick_status(trick_cards, n, trump)
    k = popcount(played)
    while True:
        stop = min(players, n + end - k)
        for i in range(n, stop):
            s = leader + i
            if s >= players:
                s -= players
            hand = live[s]
            obs = observe(info, state, s, hand, legal_mask(hand, led), -1, played, i, led, win_pos)
            card = choose(ctx, obs)
            played |= bit(card)
            led, best, win_pos = play_card(state, trump, s, card, i, led, best, win_pos)
            if log.want:
                log.cards[k] = card
            k += 1
        if stop < players:  # ``end`` falls inside this trick
            return
        winner = close_trick(players, leader, win_pos, state.tricks)
        if log.want:
            t = k // players - 1
            log.leader[t] = leader
            log.winner[t] = winner
        if k >= end:
            return
        leader = winner
        n = 0
        led = LED_NONE
        best = -1
        win_pos = -1


@inline_kernel
def _heuristic_choice(ctx, obs):
    """``play_tricks``'s ``choose`` with the heuristic in every seat (``ctx`` unused)."""
    return heuristic_obs_card(obs)


@inline_kernel
def _net_choice(table, obs):
    """``play_tricks``'s ``choose`` with net in every seat (``table``: the shared table with its weights)."""
    return net_card(table, obs)


@inline_kernel
def _to_the_end(choose, ctx, info, state, n, leader, played):
    """``play_tricks`` from the given state to the round's last card, a ``choose`` in every seat."""
    end = popcount(played)
    for s in range(info.players):
        end += popcount(state.live[s])
    t = state.trick_cards
    play_tricks(choose, ctx, info, state, n, leader, played, end, Log(False, t, t, t))


@kernel
def heuristic_tricks(info, state, n, leader, played):
    """Play the round to its end from the given state (``info`` a ``records.RoundInfo``, ``state`` a
    ``records.RoundState``; ``n`` cards of the current trick down, ``leader`` led it; ``played`` the mask of
    every card played so far) with the heuristic in every seat. The state is advanced in place; its
    ``tricks`` then holds each seat's tricks for the round."""
    _to_the_end(_heuristic_choice, 0, info, state, n, leader, played)


@kernel
def net_tricks(table, info, state, n, leader, played):
    """``heuristic_tricks`` with net in every seat (``table`` holds its weights: ``policies.net``)."""
    _to_the_end(_net_choice, table, info, state, n, leader, played)


@inline_kernel
def _self_choice(ctx, obs):
    """``play_tricks``'s ``choose`` with net in seat ``ctx[1]`` and the heuristic in every other seat."""
    if obs.seat == ctx[1]:
        return net_card(ctx[0], obs)
    return heuristic_obs_card(obs)


@kernel
def self_tricks(table, seat, info, state, n, leader, played):
    """``heuristic_tricks`` with net in ``seat`` alone (the searcher's own later cards)."""
    _to_the_end(_self_choice, (table, seat), info, state, n, leader, played)
