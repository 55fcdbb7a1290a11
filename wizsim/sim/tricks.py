"""The tricks of a round from any point of it, each card chosen by its seat's policy.

``resume_tricks`` is play advice's evaluator (``sim.evaluation`` starts it in the middle of a round, from
a world). It runs ``rollout.play_tricks``, the one trick loop (the round kernel, the search policy's
play-outs and the opponents' model run it too), choosing each card through ``dispatch.seat_card_search``, or
``dispatch.seat_card_light`` when no seat plays the search policy, as ``round.play_round`` does.
"""

from __future__ import annotations

from wizsim._jit import lean_kernel
from wizsim.policies.dispatch import any_search, seat_card_both, seat_card_light, seat_card_search, seat_card_user
from wizsim.policies.rollout import play_tricks


@lean_kernel
def resume_tricks(players, r, hook, turn_up, trump, seat_slot, slot_kind, slot_params, table, play_rng, live, bids,
                  tricks, seat_played, voids, trick_cards, n, leader, played, want_log, log_cards, log_leader,
                  log_winner, ext):
    """Play the round to its end from the given state (``n`` cards of the current trick down, led by
    ``leader``; ``played`` the mask of every card played so far), the arrays advanced in place.

    want_log : bool; log_cards (r * players,) int8 gets each card at its place in the order of play,
    log_leader, log_winner (r,) int8 each trick's leader and winner as the trick closes. ext: as
    ``round.play_round``'s (None: compiled without the search policy's code)."""
    if ext is None:
        play_tricks(seat_card_light, (r, hook, seat_slot, slot_kind, slot_params, table, play_rng, None), players,
                    turn_up, trump, live, bids, tricks, seat_played, voids, trick_cards, n, leader, played,
                    r * players, want_log, log_cards, log_leader, log_winner)
    else:
        _resume_ext(players, r, hook, turn_up, trump, seat_slot, slot_kind, slot_params, table, play_rng, live, bids,
                    tricks, seat_played, voids, trick_cards, n, leader, played, want_log, log_cards, log_leader,
                    log_winner, ext[0], ext[1])


@lean_kernel
def _resume_ext(players, r, hook, turn_up, trump, seat_slot, slot_kind, slot_params, table, play_rng, live, bids,
                tricks, seat_played, voids, trick_cards, n, leader, played, want_log, log_cards, log_leader,
                log_winner, search, user):
    """``resume_tricks`` with ``ext`` unpacked (as ``round._play_round_ext``)."""
    ctx = (r, hook, seat_slot, slot_kind, slot_params, table, play_rng, user)
    if user is None:
        if search is not None and any_search(players, seat_slot, slot_kind):
            play_tricks(seat_card_search, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids,
                        trick_cards, n, leader, played, r * players, want_log, log_cards, log_leader, log_winner)
        else:
            play_tricks(seat_card_light, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids,
                        trick_cards, n, leader, played, r * players, want_log, log_cards, log_leader, log_winner)
    elif search is None:
        play_tricks(seat_card_user, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids,
                    trick_cards, n, leader, played, r * players, want_log, log_cards, log_leader, log_winner)
    else:
        play_tricks(seat_card_both, ctx, players, turn_up, trump, live, bids, tricks, seat_played, voids,
                    trick_cards, n, leader, played, r * players, want_log, log_cards, log_leader, log_winner)
