"""A batch of Wizard rounds stepped by one kernel call: RL training at engine speed (no extra needed).

``VectorEnv(n, players=4, r=5, hook=False, seed=None, opponents=None, seat=None, auto_reset=True)``
holds ``n`` rounds as struct-of-arrays (the open table's state: hands, bids, tricks, voids, the trick in
progress; each row seen by the engine as a ``records.RoundState``) and moves them with the round kernel's
own pieces: ``deal.kernels.deal_round`` deals,
``rules.kernels`` gives trump, the hook, legal plays and scores, ``policies.rollout.play_card`` /
``close_trick`` play a card and close a trick, ``policies.dispatch`` lets built-in opponents decide.

- ``opponents=None`` (self-play): every decision of every seat is the learner's. ``step`` takes one flat
  action per round for the seat whose turn it is (``env.seat``, 1-based); rewards are (n, players), each
  seat's round score, in the step that ends the round.
- ``opponents="heuristic"`` (any policy name): the learner sits at ``seat`` (1..players; ``None``: seat
  ``index % players + 1`` for the round of index ``index``, so every seat comes round) and the policy plays
  the others inside the kernel until the learner's next decision; rewards are (n,), the learner's score.

Observations are the tensor of ``wizsim.envs.encoding`` as int8 (n, 611) (what the acting seat sees;
cast to float for a network), masks int8 (n, 85) in the flat action space (0..59 cards, 60..80 bids,
81..84 trump). ``dones`` (n,) bool marks rounds that ended in this step; with ``auto_reset`` the row
already holds the next round (its observation is the one returned), else a finished row ignores actions
until ``reset()`` (in self-play its observation is then seat 1's). An illegal action raises ``ValueError``
naming its row, and then no row is stepped. ``sample_actions()`` draws a uniformly random legal action per
row, in a kernel. Legality is the env's own (bits worked out with the masks): a caller may change the
returned masks (to mask actions for a network, say) without changing what is legal or sampled.

State, n rows and p players (seats 0-based, index 0 = seat 1): ``scal`` (n, N_SCALARS) int64, the
scalars by column ``S_*`` (phase 0..3 trump/bid/card/over, cards in the current trick, its leader, the led
code of ``rules.kernels``, the winning strength and position so far (-1: none), the turned-up card (-1: none),
trump (-1 none, 0..3, ``DEALER_NAMES`` until the dealer names it), the learner's seat, bids made, their
total, cards played, the row's round count); ``dealt``, ``live``, ``seat_played`` (n, p) uint64 card masks
(as dealt, held now, played this round); ``voids`` (n, p) int8 suit bits; ``trick_cards`` (n, p) int8, the
current trick in order of play (-1 beyond it); ``bids`` (n, p) int8 (-1: not yet); ``tricks`` (n, p) int8;
``play_rng`` (n,) uint64, each round's play stream (the opponents' draws).

Reproducibility: round ``k`` (0-based) of row ``i`` is round index ``index = k * n + i`` of the run
``seed``: dealt as ``wizsim.Round(players, r, seed=seed, index=index)`` deals, its opponents drawing from
that round's play stream as the open table's built-in players do (``envs.reference`` is the plain-Python
twin on ``wizsim.Round``, and the tests step both with the same actions).
"""

from __future__ import annotations

import secrets
from collections import namedtuple

import numpy as np

from wizsim._numba import inline_kernel, kernel, lean_kernel
from wizsim.bits import ZERO, bit, lowest_bit, popcount, select_bit
from wizsim.cards import FULL_DECK_MASK, N_CARDS
from wizsim.config import ConfigError, check_count, check_seed, n_game_rounds
from wizsim.deal.kernels import DEAL_STREAM, PLAY_STREAM, deal_round, rand_below, stream_key
from wizsim.envs.encoding import (
    BID,
    BID_ACTION,
    BID_MADE,
    HAND,
    HOOK,
    LEADER,
    N_ACTIONS,
    OBS_DIM,
    PHASE,
    PLAYED,
    PLAYERS,
    ROUND,
    SEAT,
    TRICK,
    TRICKS,
    TRUMP,
    TRUMP_ACTION,
    TURN_UP,
    TURN_UP_NONE,
    VOIDS,
)
from wizsim.policies.dispatch import choose_bid, choose_card, choose_trump
from wizsim.policies.observation import observe
from wizsim.policies.records import RoundInfo, RoundState
from wizsim.policies.registry import check_policy, make_slots
from wizsim.policies.rollout import close_trick, play_card
from wizsim.rules import kernels as rules  # the rules the round kernel plays by

# The random legal actions of ``sample_actions`` draw from stream 5 of (seed, row): not a round's
# stream (deal.kernels numbers those 0..4), so sampling never shifts a deal or an opponent's draw.
ACTION_STREAM = 5

PH_TRUMP, PH_BID, PH_CARD, PH_OVER = 0, 1, 2, 3

# Columns of the (n, N_SCALARS) int64 state.
S_PHASE, S_N, S_LEADER, S_LED, S_BEST, S_WIN, S_TURN_UP, S_TRUMP, S_LEARNER, S_NBIDS, S_TOTAL, S_CARDS, S_EP = range(13)
N_SCALARS = 13

NO_OPPONENT = -1  # opp_kind when every seat is the learner's


# The env's state and outputs travel as two records (``EnvRows``, ``EnvOut``) of (n, ...) arrays, the
# rules as ``cfg`` = (players, r, hook, fixed_seat, auto_reset) and the opponents as ``Opponents``. A row's
# cards move by the engine's own ``policies.rollout.play_card``/``close_trick`` on that row's
# ``records.RoundState`` (views of row ``i``); the kernels that make views are lean (``_numba.lean_kernel``):
# counting a view's references where it is made and dropped was four fifths of a step's time.
# Opponents' decisions, which allocate, run in kernels that count (``opponents_play``).

EnvRows = namedtuple("EnvRows", ("scal", "dealt", "live", "seat_played", "voids", "trick_cards", "bids", "tricks",
                                 "play_rng"))
EnvOut = namedtuple("EnvOut", ("obs", "masks", "legal", "seat", "rewards", "dones"))
Opponents = namedtuple("Opponents", ("kind", "params", "table", "search", "net"))


@inline_kernel
def current_seat(players, scal, i):
    """The 0-based seat whose decision it is in row ``i``, -1 when its round is over."""
    ph = scal[i, S_PHASE]
    if ph == PH_TRUMP:
        return players - 1
    if ph == PH_BID:
        return scal[i, S_NBIDS]
    if ph == PH_CARD:
        s = scal[i, S_LEADER] + scal[i, S_N]
        return s - players if s >= players else s
    return -1


@inline_kernel
def is_legal(legal, i, action):
    """Whether the flat ``action`` is legal for row ``i``'s current decision: a bit of ``legal`` (n, 2), the
    legal actions ``mask_row`` worked out when it last observed the row (actions 0..63, then 64..)."""
    if action < 0 or action >= N_ACTIONS:
        return False
    return (legal[i, action >> 6] >> np.uint64(action & 63)) & np.uint64(1) != ZERO


@inline_kernel
def row_state(st, i):
    """Row ``i`` of the env's state as the engine's ``records.RoundState`` (views)."""
    return RoundState(st.live[i], st.seat_played[i], st.voids[i], st.trick_cards[i], st.bids[i], st.tricks[i])


@inline_kernel
def apply_action(players, r, st, i, action):
    """Row ``i``'s current seat takes the (legal) flat ``action``: the open table's ``Round.apply``."""
    scal = st.scal
    ph = scal[i, S_PHASE]
    s = current_seat(players, scal, i)
    if ph == PH_TRUMP:
        scal[i, S_TRUMP] = action - TRUMP_ACTION
        scal[i, S_PHASE] = PH_BID
    elif ph == PH_BID:
        b = action - BID_ACTION
        st.bids[i, s] = b
        scal[i, S_TOTAL] += b
        scal[i, S_NBIDS] += 1
        if s == players - 1:
            scal[i, S_PHASE] = PH_CARD
    else:
        n = scal[i, S_N]
        led, best, win = play_card(row_state(st, i), scal[i, S_TRUMP], s, action, n, scal[i, S_LED], scal[i, S_BEST],
                                   scal[i, S_WIN])
        scal[i, S_LED] = led
        scal[i, S_BEST] = best
        scal[i, S_WIN] = win
        n += 1
        scal[i, S_CARDS] += 1
        if n == players:
            scal[i, S_LEADER] = close_trick(players, scal[i, S_LEADER], win, st.tricks[i])
            n = 0
            scal[i, S_LED] = rules.LED_NONE
            scal[i, S_BEST] = -1
            scal[i, S_WIN] = -1
            if scal[i, S_CARDS] == players * r:
                scal[i, S_PHASE] = PH_OVER
        scal[i, S_N] = n


@kernel
def opponent_action(players, r, hook, opp, st, i, search):
    """The flat action a built-in policy (``opp``: ``Opponents``) takes for row ``i``'s current seat,
    drawing from the round's play stream: what ``wizsim.player(name).decide`` answers on the open table.
    ``search``: ``opp.search``, None unless the opponents play the search policy, passed on its own: Numba
    drops the deciders' ``if search is not None`` branches (the search policy's code) only for an argument,
    not for a record's field."""
    scal = st.scal
    ph = scal[i, S_PHASE]
    s = current_seat(players, scal, i)
    hand = st.live[i, s]
    trump = scal[i, S_TRUMP]
    rng = st.play_rng[i:i + 1]
    state = row_state(st, i)
    kind, params, table, _, net = opp  # net: None unless they play net (``dispatch._net`` drops it by type)
    if ph == PH_TRUMP:
        obs = observe(RoundInfo(players, r, hook, scal[i, S_TURN_UP], -1), state, s, hand, ZERO, -1, ZERO, 0,
                      rules.LED_NONE, -1)
        return TRUMP_ACTION + choose_trump(kind, params, table, obs, rng, search, None, net)
    info = RoundInfo(players, r, hook, scal[i, S_TURN_UP], trump)
    if ph == PH_BID:
        forbidden = rules.forbidden_bid(hook, s, players, r, scal[i, S_TOTAL])
        obs = observe(info, state, s, hand, ZERO, forbidden, ZERO, 0, rules.LED_NONE, -1)
        return BID_ACTION + choose_bid(kind, params, table, obs, rng, search, None, net)
    played = ZERO
    for k in range(players):
        played |= st.seat_played[i, k]
    led = scal[i, S_LED]
    obs = observe(info, state, s, hand, rules.legal_mask(hand, led), -1, played, scal[i, S_N], led, scal[i, S_WIN])
    return choose_card(kind, params, table, obs, rng, search, None, net)


@lean_kernel
def reset_row(seed, index, players, r, fixed_seat, st, i, scratch):
    """Deal round ``index`` of the run into row ``i``, as ``wizsim.Round`` deals it; ``scratch`` = (deal_rng
    (1,) uint64, no_hands (players,) uint64 zeros)."""
    deal_rng, no_hands = scratch
    scal = st.scal
    deal_rng[0] = stream_key(seed, index, DEAL_STREAM)
    st.play_rng[i] = stream_key(seed, index, PLAY_STREAM)
    tu = deal_round(deal_rng, players, r, no_hands, FULL_DECK_MASK, st.dealt[i])
    for s in range(players):
        st.live[i, s] = st.dealt[i, s]
        st.seat_played[i, s] = ZERO
        st.voids[i, s] = 0
        st.trick_cards[i, s] = -1
        st.bids[i, s] = -1
        st.tricks[i, s] = 0
    t = rules.trump_of_turn_up(tu)
    scal[i, S_PHASE] = PH_TRUMP if t == rules.DEALER_NAMES else PH_BID
    scal[i, S_N] = 0
    scal[i, S_LEADER] = 0
    scal[i, S_LED] = rules.LED_NONE
    scal[i, S_BEST] = -1
    scal[i, S_WIN] = -1
    scal[i, S_TURN_UP] = tu
    scal[i, S_TRUMP] = t
    scal[i, S_LEARNER] = fixed_seat if fixed_seat >= 0 else index % players
    scal[i, S_NBIDS] = 0
    scal[i, S_TOTAL] = 0
    scal[i, S_CARDS] = 0


@kernel
def clear_row(out, i):
    """Zero row ``i`` of a 2-D array: a call of its own, which LLVM makes one memset (inlined into the step
    loop it stays a byte-by-byte loop)."""
    out[i, :] = 0


@inline_kernel
def encode_row(players, r, hook, me, st, out, i):
    """The observation tensor (``envs.encoding``) of row ``i`` as 0-based seat ``me`` sees it, into row ``i`` of
    ``out`` (n, OBS_DIM) int8: the kernel twin of ``encoding.encode_observation``."""
    scal, trick_cards, bids, tricks, voids = st.scal, st.trick_cards, st.bids, st.tricks, st.voids
    clear_row(out, i)
    hand = st.live[i, me]
    played = ZERO
    for s in range(players):
        played |= st.seat_played[i, s]
    for c in range(N_CARDS):  # branch-free over the 60 slots: vectorised, unlike a loop over the set bits
        out[i, HAND + c] = (hand >> np.uint64(c)) & np.uint64(1)
        out[i, PLAYED + c] = (played >> np.uint64(c)) & np.uint64(1)
    leader = scal[i, S_LEADER]
    for j in range(scal[i, S_N]):
        s = leader + j
        s = s - players if s >= players else s
        rel = s - me
        rel = rel + players if rel < 0 else rel
        out[i, TRICK + rel * N_CARDS + trick_cards[i, j]] = 1
    for s in range(players):
        rel = s - me
        rel = rel + players if rel < 0 else rel
        if bids[i, s] >= 0:
            out[i, BID_MADE + rel] = 1
            out[i, BID + rel] = bids[i, s]
        out[i, TRICKS + rel] = tricks[i, s]
        v = voids[i, s]
        if v != 0:
            for k in range(4):
                out[i, VOIDS + rel * 4 + k] = (v >> k) & 1
    tu = scal[i, S_TURN_UP]
    out[i, TURN_UP_NONE if tu < 0 else TURN_UP + tu] = 1
    t = scal[i, S_TRUMP]
    out[i, TRUMP + (t if 0 <= t < 4 else 4 if t == -1 else 5)] = 1  # -1: no trump; rules.DEALER_NAMES: not named yet
    out[i, ROUND] = r
    out[i, PLAYERS + players - 3] = 1
    out[i, HOOK] = 1 if hook else 0
    out[i, SEAT + me] = 1
    rel = leader - me
    rel = rel + players if rel < 0 else rel
    out[i, LEADER + rel] = 1
    out[i, PHASE + scal[i, S_PHASE]] = 1


@inline_kernel
def mask_row(players, r, hook, scal, live, out, legal, i):
    """The legal flat actions of row ``i``'s current decision into row ``i`` of ``out`` (n, N_ACTIONS) int8
    (all 0 when the round is over) and as bits into ``legal`` (n, 2) uint64, which ``is_legal`` and
    ``sample_kernel`` read (the int8 masks are the caller's to change)."""
    clear_row(out, i)
    lo = ZERO
    hi = ZERO
    ph = scal[i, S_PHASE]
    if ph == PH_TRUMP:
        for k in range(4):
            out[i, TRUMP_ACTION + k] = 1
            hi |= bit(TRUMP_ACTION + k - 64)
    elif ph == PH_BID:
        forbidden = rules.forbidden_bid(hook, scal[i, S_NBIDS], players, r, scal[i, S_TOTAL])
        for b in range(r + 1):
            if b != forbidden:
                out[i, BID_ACTION + b] = 1
                a = BID_ACTION + b
                if a < 64:
                    lo |= bit(a)
                else:
                    hi |= bit(a - 64)
    elif ph == PH_CARD:
        lo = rules.legal_mask(live[i, current_seat(players, scal, i)], scal[i, S_LED])
        cards = lo
        while cards != ZERO:
            out[i, lowest_bit(cards)] = 1
            cards &= cards - np.uint64(1)
    legal[i, 0] = lo
    legal[i, 1] = hi


@kernel
def opponents_play(players, r, hook, opp, st, i):
    """The opponents of row ``i`` decide until it is the learner's turn or the round is over."""
    scal = st.scal
    while scal[i, S_PHASE] != PH_OVER and current_seat(players, scal, i) != scal[i, S_LEARNER]:
        _apply_lean(players, r, st, i, opponent_action(players, r, hook, opp, st, i, opp.search))


@lean_kernel
def _apply_lean(players, r, st, i, action):
    """``apply_action`` where the caller counts references (``opponents_play``): its row views counted
    nowhere."""
    apply_action(players, r, st, i, action)


@inline_kernel
def observe_row(players, r, hook, opp_kind, st, out, i):
    """Row ``i``'s observation and mask for the seat that acts (the learner's seat with opponents)."""
    scal = st.scal
    me = scal[i, S_LEARNER] if opp_kind != NO_OPPONENT else current_seat(players, scal, i)
    if me < 0:  # a finished round in self-play (no auto reset): seat 1's view
        me = 0
    out.seat[i] = me + 1
    encode_row(players, r, hook, me, st, out.obs, i)
    mask_row(players, r, hook, scal, st.live, out.masks, out.legal, i)


@lean_kernel
def reset_kernel(seed, rows, cfg, opp, st, out, scratch):
    """Deal the next round into each row of ``rows`` (round index ``scal[i, S_EP] * n + i``) and observe it.
    cfg = (players, r, hook, fixed_seat, auto_reset); opp: ``Opponents``, or None (the type) in self-play, as
    ``step_kernel``'s (the opponents' code is then not compiled in); st: ``EnvRows``; out: ``EnvOut``; scratch as
    ``reset_row``'s."""
    players, r, hook, fixed_seat, _ = cfg
    scal = st.scal
    n = scal.shape[0]
    for i in rows:
        reset_row(seed, scal[i, S_EP] * n + i, players, r, fixed_seat, st, i, scratch)
        if opp is None:
            observe_row(players, r, hook, NO_OPPONENT, st, out, i)
        else:
            opponents_play(players, r, hook, opp, st, i)
            observe_row(players, r, hook, opp.kind, st, out, i)


@lean_kernel
def step_kernel(seed, actions, cfg, opp, st, out, scratch):
    """One action per row for its current seat, then, with built-in opponents (``opp`` an ``Opponents``),
    theirs until the learner's next decision; ``opp`` None (the type) is self-play, and the opponents' code
    is then not compiled in. ``out.rewards``: self-play (n, players) float32, each seat's score in the step
    that ends its round; with opponents (n, 1), the learner's score. ``out.dones`` (n,) bool. Returns -1, or
    the first row whose action is illegal (then no row is stepped). Arguments as ``reset_kernel``'s. (Lean
    too: the opponents' policies, which allocate, count in ``opponents_play``.)"""
    players, r, hook, fixed_seat, auto_reset = cfg
    scal, rewards, dones = st.scal, out.rewards, out.dones
    n = scal.shape[0]
    for i in range(n):
        if scal[i, S_PHASE] != PH_OVER and not is_legal(out.legal, i, actions[i]):
            return i
    for i in range(n):
        if opp is None:
            for k in range(players):
                rewards[i, k] = 0.0
        else:
            rewards[i, 0] = 0.0
        if scal[i, S_PHASE] == PH_OVER:  # finished and not reset: the action is ignored
            dones[i] = True
            continue
        dones[i] = False
        apply_action(players, r, st, i, actions[i])
        if opp is not None:
            opponents_play(players, r, hook, opp, st, i)
        if scal[i, S_PHASE] == PH_OVER:
            dones[i] = True
            if opp is None:
                for s in range(players):
                    rewards[i, s] = rules.score_round(st.bids[i, s], st.tricks[i, s])
            else:
                s = scal[i, S_LEARNER]
                rewards[i, 0] = rules.score_round(st.bids[i, s], st.tricks[i, s])
            if auto_reset:
                scal[i, S_EP] += 1
                reset_row(seed, scal[i, S_EP] * n + i, players, r, fixed_seat, st, i, scratch)  # -1 in self-play
                if opp is not None:
                    opponents_play(players, r, hook, opp, st, i)
        if opp is None:
            observe_row(players, r, hook, NO_OPPONENT, st, out, i)
        else:
            observe_row(players, r, hook, opp.kind, st, out, i)
    return -1


@lean_kernel
def sample_kernel(legal, rng, out):
    """A uniformly random legal action per row of ``legal`` (n, 2) uint64 (``mask_row``'s bits) into ``out``
    (n,) int64 (-1 for a row with none): the k-th legal action in ascending order, k drawn from the
    row's stream ``rng`` (n,) uint64."""
    for i in range(legal.shape[0]):
        lo = legal[i, 0]
        hi = legal[i, 1]
        n_lo = popcount(lo)
        total = n_lo + popcount(hi)
        if total == 0:
            out[i] = -1
            continue
        k = rand_below(rng[i:i + 1], total)
        if k < n_lo:
            out[i] = select_bit(lo, k)
        else:
            out[i] = 64 + select_bit(hi, k - n_lo)


class VectorEnv:
    """``n`` rounds of Wizard stepped together (see the module docstring)."""

    def __init__(self, n: int, players: int = 4, r: int = 5, *, hook: bool = False, seed: int | None = None,
                 opponents: str | None = None, seat: int | None = None, auto_reset: bool = True):
        self.n = check_count(n, "n", 1, 2**31)
        self.players = check_count(players, "players", 3, 6)
        self.r = check_count(r, "r", 1, n_game_rounds(self.players))
        self.hook = bool(hook)
        self.auto_reset = bool(auto_reset)
        self._search = self._net = None
        if opponents is None:
            if seat is not None:
                raise ConfigError("seat needs opponents: without them every seat is the learner's")
            self.opponents, self._kind = None, NO_OPPONENT
            self._params, self._table = np.zeros(1, np.float64), np.zeros(1, np.float64)
        else:
            self.opponents = check_policy(opponents)
            slots = make_slots([self.opponents])
            self._kind, self._params, self._table = int(slots.kinds[0]), slots.params[0], slots.table
            # None: the kernels compile without search (net)
            self._search, _, self._net = slots.ext or (None, None, None)
        self.fixed_seat = -1 if seat is None else check_count(seat, "seat", 1, self.players) - 1
        p, n = self.players, self.n
        self._scal = np.zeros((n, N_SCALARS), np.int64)
        self._dealt = np.zeros((n, p), np.uint64)
        self._live = np.zeros((n, p), np.uint64)
        self._seat_played = np.zeros((n, p), np.uint64)
        self._voids = np.zeros((n, p), np.int8)
        self._trick = np.full((n, p), -1, np.int8)
        self._bids = np.full((n, p), -1, np.int8)
        self._tricks = np.zeros((n, p), np.int8)
        self._play_rng = np.zeros(n, np.uint64)
        self.obs = np.zeros((n, OBS_DIM), np.int8)
        self.masks = np.zeros((n, N_ACTIONS), np.int8)
        self._legal = np.zeros((n, 2), np.uint64)  # the same as bits: the env's own, whatever a caller does to masks
        self.seat = np.zeros(n, np.int8)  # the 1-based seat each row's observation and mask are for
        self.rewards = np.zeros((n, 1 if self.opponents else p), np.float32)
        self.dones = np.zeros(n, bool)
        self._actions = np.zeros(n, np.int64)
        self._deal_rng = np.zeros(1, np.uint64)
        self._no_hands = np.zeros(p, np.uint64)
        self._cfg = (p, self.r, self.hook, self.fixed_seat, self.auto_reset)
        self._opp = Opponents(self._kind, self._params, self._table, self._search, self._net)
        self._rows = EnvRows(self._scal, self._dealt, self._live, self._seat_played, self._voids, self._trick,
                             self._bids, self._tricks, self._play_rng)
        self._out = EnvOut(self.obs, self.masks, self._legal, self.seat, self.rewards, self.dones)
        self._scratch = (self._deal_rng, self._no_hands)
        self.seed = None
        self._seed(seed)

    def _seed(self, seed):
        self.seed = secrets.randbits(63) if seed is None else check_seed(seed)
        self._scal[:, S_EP] = -1
        self._action_rng = np.array([stream_key(np.uint64(self.seed), np.int64(i), ACTION_STREAM)
                                     for i in range(self.n)], np.uint64)

    @property
    def n_actions(self) -> int:
        return N_ACTIONS

    @property
    def obs_dim(self) -> int:
        return OBS_DIM

    def round_index(self, i: int) -> int:
        """The round index (``wizsim.Round(..., seed=env.seed, index=...)``) row ``i`` plays now."""
        return int(self._scal[i, S_EP]) * self.n + i

    def reset(self, seed: int | None = None, rows=None) -> tuple[np.ndarray, np.ndarray]:
        """Deal a fresh round in every row (or in ``rows``); ``seed`` restarts the run. Returns (obs, masks)."""
        if seed is not None:
            self._seed(seed)
        rows = np.arange(self.n) if rows is None else np.asarray(rows, np.int64).ravel()
        self._scal[rows, S_EP] += 1
        opp = None if self.opponents is None else self._opp  # None, the type: self-play compiles no opponents
        reset_kernel(np.uint64(self.seed), rows, self._cfg, opp, self._rows, self._out, self._scratch)
        self.dones[rows] = False
        return self.obs, self.masks

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One flat action per row; returns (obs, masks, rewards, dones), arrays the env reuses (copy to keep)."""
        checked = self._check_actions(actions)
        if (self._scal[:, S_EP] < 0).any():
            raise RuntimeError("call reset() before step(): some rows hold no round yet")
        a = self._actions
        a[:] = checked
        opp = None if self.opponents is None else self._opp
        bad = step_kernel(np.uint64(self.seed), a, self._cfg, opp, self._rows, self._out, self._scratch)
        if bad >= 0:
            raise ValueError(f"action {int(a[bad])} is not legal in row {bad} (seat {int(self.seat[bad])}): legal are "
                             f"{[a for a in range(N_ACTIONS) if int(self._legal[bad, a >> 6]) >> (a & 63) & 1]}; no row was stepped")
        rewards = self.rewards[:, 0] if self.opponents else self.rewards
        return self.obs, self.masks, rewards, self.dones

    def _check_actions(self, actions) -> np.ndarray:
        """``actions`` as whole numbers, one per row (or one for every row); a float, a bool or text is
        refused rather than cast (1.7 is not action 1, "3" is not action 3)."""
        try:
            arr = np.asarray(actions)
        except (ValueError, TypeError):  # ragged nesting
            raise TypeError(f"actions must be {self.n} whole numbers, one per row; got {type(actions).__name__}") \
                from None
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be whole numbers (action ids 0..{N_ACTIONS - 1}), got an array of "
                            f"{arr.dtype} ({repr(actions)[:40]})")
        if arr.shape not in ((), (self.n,)):
            raise ValueError(f"actions must hold one action per row ({self.n}), got shape {arr.shape}")
        return arr

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per row (-1 for a finished row), drawn in a kernel."""
        out = np.empty(self.n, np.int64)
        sample_kernel(self._legal, self._action_rng, out)
        return out


__all__ = ["VectorEnv"]
