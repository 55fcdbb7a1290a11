"""The tricks of a round from any point of it, each card chosen by its seat's policy.

``resume_tricks`` is play advice's evaluator (``sim.evaluation`` starts it in the middle of a round, from
a world). It runs ``rollout.play_tricks``, the one trick loop (the round kernel, the search policy's
play-outs and the opponents' model run it too), choosing each card through ``dispatch.seat_card``, or
``dispatch.seat_card_light`` when no seat plays the search policy, as ``round.play_round`` does.
"""

from __future__ import annotations

from wizsim._jit import kernel
from wizsim.policies.dispatch import any_search, seat_card, seat_card_light
from wizsim.policies.rollout import play_tricks


@kernel
def resume_tricks(players, r, hook, turn_up, trump, seat_slot, slot_kind, slot_params, table, play_rng, live, bids,
                  tricks, seat_played, voids, trick_cards, n, leader, played, want_log, log_cards, log_leader,
                  log_winner):
    """Play the round to its end from the given state (``n`` cards of the current trick down, led by
    ``leader``; ``played`` the mask of every card played so far), the arrays advanced in place.

    want_log : bool; log_cards (r * players,) int8 gets each card at its place in the order of play,
    log_leader, log_winner (r,) int8 each trick's leader and winner as the trick closes."""
    ctx = (r, hook, seat_slot, slot_kind, slot_params, table, play_rng)
    if any_search(players, seat_slot, slot_kind):
        play_tricks(seat_card, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids, trick_cards, n,
                    leader, played, r * players, want_log, log_cards, log_leader, log_winner)
    else:
        play_tricks(seat_card_light, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids,
                    trick_cards, n, leader, played, r * players, want_log, log_cards, log_leader, log_winner)
