"""Play advice's play-outs: every candidate card played now, then the round played out, on each world.

World i and candidate j: the state's arrays are copied, the seat plays ``candidates[j]``, and
``resume_tricks`` plays the rest with the opponents' policy in the other seats and the
``play`` policy in the seat's own. Every candidate of world i uses the play stream
``(seed, first_index + i, PLAY_STREAM)`` from its start (common random numbers), so the differences
between candidates are measured on the same deals and the same random choices.

``resume_tricks`` plays the tricks of a round from any point of it, each card chosen by its seat's
policy: it runs ``rollout.play_tricks``, the one trick loop (the round kernel, the search policy's
play-outs and the opponents' model run it too), choosing each card through ``dispatch.seat_card``, with
the search policy's deciders only when a seat plays it, as ``round.play_round`` does.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import inline_kernel, kernel, lean_kernel
from wizsim.bits import bit
from wizsim.deal.kernels import PLAY_STREAM, stream_key
from wizsim.policies.dispatch import any_search, seat_card
from wizsim.policies.records import Log, RoundInfo, RoundState, Seats
from wizsim.policies.rollout import play_card, play_tricks, trick_status

BLOCK = 16  # the fewest worlds a thread plays out in one call (``sim.driver.run_batch``)


@lean_kernel
def resume_tricks(info, seats, play_rng, state, n, leader, played, log, ext):
    """Play the round to its end from the given state (``info`` its ``records.RoundInfo``, ``state`` its
    ``records.RoundState``, advanced in place; ``n`` cards of the current trick down, led by ``leader``;
    ``played`` the mask of every card played so far), the seats' policies ``seats`` (``records.Seats``)
    drawing from ``play_rng``.

    log : ``records.Log``, written as the round kernel writes it. ext: as ``round.play_round``'s (None:
    compiled without the search policy's or net's code)."""
    a = (info, seats, play_rng, state, n, leader, played, log)
    if ext is None:
        _resume(None, None, None, a)
    else:
        _resume_ext(ext[0], ext[1], ext[2], a)


@lean_kernel
def _resume_ext(search, user, net, a):
    """``resume_tricks`` with ``ext`` unpacked (as ``round._play_round_ext``)."""
    if user is None:
        if search is not None and any_search(a[0].players, a[1]):
            _resume(search, None, net, a)
        else:
            _resume(None, None, net, a)
    elif search is None:
        _resume(None, user, net, a)
    else:
        _resume(search, user, net, a)


@inline_kernel
def _resume(search, user, net, a):
    """``resume_tricks`` with the deciders' ``search, user, net``: the trick loop compiled for them."""
    info, seats, play_rng, state, n, leader, played, log = a
    play_tricks(seat_card, (seats, play_rng, search, user, net), info, state, n, leader, played, info.r * info.players, log)


@kernel
def evaluate_worlds_kernel(seed, first_index, worlds, turn_ups, candidates, start, seats, out, ext, logs):
    """``out[i, j]``: the seat ``me``'s tricks at the end of the round on world i after playing
    ``candidates[j]`` now. worlds (n, players) uint64 (the seat's own hand in its column), turn_ups (n,)
    int8, candidates (k,) int8; ``start`` = (info, state, me, n_in_trick, leader, played), the state as
    ``records.PlayState.kernel_records`` gives it (``info.turn_up`` is each world's); seats
    (``records.Seats``) and ext as ``round.play_round``'s. logs: (n, k, r * players + 2 r) int8, each
    play-out's trick log (the cards from the one after ``candidates[j]`` on at their place in the order of
    play, then each trick's leader, then its winner, from the current trick on; the rest untouched:
    advice's reasons), or a (0, 0, 0) array: not wanted, no log. Serial: ``evaluate_worlds`` runs a span of
    worlds per thread (``sim.driver.run_batch``), a parallel loop would compile the play-outs twice more."""
    info0, state0, me, n_in_trick, leader, played = start
    players, r, hook, trump = info0.players, info0.r, info0.hook, info0.trump
    _, seat_played, voids, trick_cards, bids, tricks = state0
    n = worlds.shape[0]
    k = candidates.shape[0]
    led0, best0, win0 = trick_status(trick_cards, n_in_trick, trump)
    for i in range(n):
        live = np.empty(players, np.uint64)
        sp = np.empty(players, np.uint64)
        vd = np.empty(players, np.int8)
        tc = np.empty(players, np.int8)
        tr = np.empty(players, np.int8)
        state = RoundState(live, sp, vd, tc, bids, tr)
        info = RoundInfo(players, r, hook, np.int64(turn_ups[i]), trump)  # int64 as the round's: its deciders serve
        rng = np.empty(1, np.uint64)
        want_log = logs.shape[0] > 0
        log = np.zeros(r * players if want_log else 1, np.int8)
        log_leader = np.zeros(r if want_log else 1, np.int8)
        log_winner = np.zeros(r if want_log else 1, np.int8)
        for j in range(k):
            for s in range(players):
                live[s] = worlds[i, s]
                sp[s] = seat_played[s]
                tr[s] = tricks[s]
                vd[s] = voids[s]
                tc[s] = trick_cards[s]
            rng[0] = stream_key(seed, first_index + i, PLAY_STREAM)
            c = candidates[j]
            _candidate(info, seats, rng, state, (me, n_in_trick, leader, played, led0, best0, win0), c,
                       Log(want_log, log, log_leader, log_winner), ext)
            out[i, j] = tr[me]
            if want_log:  # element by element: a slice assignment's shape check compiles 2-3 s of message formatting
                m = r * players
                for t in range(m):
                    logs[i, j, t] = log[t]
                for t in range(r):
                    logs[i, j, m + t] = log_leader[t]
                    logs[i, j, m + r + t] = log_winner[t]


@lean_kernel
def _candidate(info, seats, rng, state, at, c, log, ext):
    """The seat plays ``c`` now (``at`` = (me, n_in_trick, leader, played, and the trick's led code, best
    strength and its position)), then the round is played out: lean, a call of its own (inlined into the
    counting kernel, its arrays' reference counts cost play advice a quarter more time)."""
    me, n_in_trick, leader, played, led0, best0, win0 = at
    play_card(state, info.trump, me, c, n_in_trick, led0, best0, win0)
    resume_tricks(info, seats, rng, state, n_in_trick + 1, leader, played | bit(c), log, ext)


def evaluate_worlds(state, worlds, turn_ups, candidates, policy: str = "heuristic", play: str = "heuristic",
                    seed: int = 0, first_index: int = 0, names=None, logs: np.ndarray | None = None) -> np.ndarray:
    """(n, k) int8: the seat's tricks at the end of the round on each world for each candidate card, the
    opponents playing ``policy`` and the seat's own later cards ``play``; or, with ``names``, seat s
    playing ``names[s]`` (the seat's own entry included). ``logs`` (n, k, r * players + 2 r) int8, when
    given, gets each play-out's trick log (the kernel's)."""
    from wizsim.policies import make_slots
    from wizsim.policies.dispatch import kernel_ext
    from wizsim.sim.driver import run_batch

    info, state_arrays, me, n_in_trick, leader, played = state.kernel_records()
    if names is None:
        names = [policy] * state.players
        names[state.me] = play
    slots = make_slots(list(names))
    seat_slot = np.array([slots.slot_of(n) for n in names], np.int8)
    n, k = len(worlds), len(candidates)
    out = np.zeros((n, k), np.int8)
    if n and k:
        worlds = np.ascontiguousarray(worlds, np.uint64)
        turn_ups = np.ascontiguousarray(turn_ups, np.int8)
        candidates = np.ascontiguousarray(candidates, np.int8)
        start = (info, state_arrays, me, n_in_trick, leader, played)
        seats = Seats(seat_slot, slots.kinds, slots.params, slots.table)
        ext = kernel_ext(slots.kinds, params=slots.params)
        logs = np.zeros((0, 0, 0), np.int8) if logs is None else logs

        def rows(kern, a, b):
            kern(np.uint64(seed), np.int64(first_index + a), worlds[a:b], turn_ups[a:b], candidates, start, seats,
                 out[a:b], ext, logs[a:b] if logs.shape[0] else logs)

        run_batch(evaluate_worlds_kernel, n, BLOCK, ext, rows)
    return out
