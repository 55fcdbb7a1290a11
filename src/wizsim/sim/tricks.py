"""The tricks of a round from any point of it, each card chosen by its seat's policy.

``resume_tricks`` is play advice's evaluator (``sim.evaluation`` starts it in the middle of a round, from
a world). It runs ``rollout.play_tricks``, the one trick loop (the round kernel, the search policy's
play-outs and the opponents' model run it too), choosing each card through ``dispatch.seat_card``, with
the search policy's deciders only when a seat plays it, as ``round.play_round`` does.
"""

from __future__ import annotations

from wizsim._jit import inline_kernel, lean_kernel
from wizsim.policies.dispatch import any_search, seat_card
from wizsim.policies.rollout import play_tricks


@lean_kernel
def resume_tricks(info, seats, play_rng, state, n, leader, played, log, ext):
    """Play the round to its end from the given state (``info`` its ``records.RoundInfo``, ``state`` its
    ``records.RoundState``, advanced in place; ``n`` cards of the current trick down, led by ``leader``;
    ``played`` the mask of every card played so far), the seats' policies ``seats`` (``records.Seats``)
    drawing from ``play_rng``.

    log : ``records.Log``, written as the round kernel writes it. ext: as ``round.play_round``'s (None:
    compiled without the search policy's code)."""
    a = (info, seats, play_rng, state, n, leader, played, log)
    if ext is None:
        _resume(None, None, a)
    else:
        _resume_ext(ext[0], ext[1], a)


@lean_kernel
def _resume_ext(search, user, a):
    """``resume_tricks`` with ``ext`` unpacked (as ``round._play_round_ext``)."""
    if user is None:
        if search is not None and any_search(a[0].players, a[1]):
            _resume(search, None, a)
        else:
            _resume(None, None, a)
    elif search is None:
        _resume(None, user, a)
    else:
        _resume(search, user, a)


@inline_kernel
def _resume(search, user, a):
    """``resume_tricks`` with the deciders' ``search, user``: the trick loop compiled for them."""
    info, seats, play_rng, state, n, leader, played, log = a
    play_tricks(seat_card, (seats, play_rng, search, user), info, state, n, leader, played, info.r * info.players, log)
