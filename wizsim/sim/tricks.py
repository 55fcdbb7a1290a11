"""The tricks of a round from any point of it, each card chosen by its seat's policy.

``resume_tricks`` is the round kernel's trick loop (``round.play_round`` starts it at the first card)
and play advice's evaluator (``sim.evaluation`` starts it in the middle of a round, from a world). It
plays on the state arrays of ``policies.rollout`` with that module's bookkeeping (``play_card``,
``close_trick``), choosing each card through ``dispatch.choose_card``; the search policy's own
play-outs run ``rollout.heuristic_tricks``, the same loop with the heuristic in every seat.
"""

from __future__ import annotations

from wizsim._jit import kernel
from wizsim.bits import ZERO, bit, popcount
from wizsim.policies.dispatch import choose_card
from wizsim.policies.rollout import close_trick, play_card, trick_status
from wizsim.rules.kernels import LED_NONE, legal_mask


@kernel
def resume_tricks(players, r, hook, turn_up, trump, seat_slot, slot_kind, slot_params, table, play_rng, live, bids,
                  tricks, seat_played, voids, trick_cards, n, leader, played, want_log, log_cards, log_leader,
                  log_winner):
    """Play the round to its end from the given state (``n`` cards of the current trick down, led by
    ``leader``; ``played`` the mask of every card played so far), the arrays advanced in place.

    want_log : bool; log_cards (r * players,) int8 gets each card at its place in the order of play,
    log_leader, log_winner (r,) int8 each trick's leader and winner as the trick closes."""
    led, best, win_pos = trick_status(trick_cards, n, trump)
    k = popcount(played)
    while True:
        if n == players:
            winner = close_trick(players, leader, win_pos, tricks)
            if want_log:
                t = k // players - 1
                log_leader[t] = leader
                log_winner[t] = winner
            leader = winner
            n = 0
            led = LED_NONE
            best = -1
            win_pos = -1
        s = leader + n
        if s >= players:
            s -= players
        hand = live[s]
        if hand == ZERO:
            return
        legal = legal_mask(hand, led)
        slot = seat_slot[s]
        card = choose_card(slot_kind[slot], slot_params[slot], table, s, players, r, hook, hand, legal, turn_up,
                           trump, bids, tricks, seat_played, played, trick_cards, n, led, win_pos, voids, play_rng)
        played |= bit(card)
        led, best, win_pos = play_card(s, card, n, led, best, win_pos, trump, live, seat_played, voids, trick_cards)
        if want_log:
            log_cards[k] = card
        k += 1
        n += 1
