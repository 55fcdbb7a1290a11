"""Plain-Python twins of ``envs.vector``'s kernels, built on the open table (``wizsim.Round``, the built-in
players' ``decide``, ``encoding.encode_observation``): the same interface and the same semantics, written
from the open table's documentation (docs/guide/players.md) rather than from the kernels. Slow, and only for the tests that pin the
kernels to them.

- ``ReferenceVectorEnv``: the twin of ``VectorEnv`` (``reset_kernel``, ``step_kernel``, ``encode_row``,
  ``mask_row``);
- ``sample_actions``: the twin of ``sample_kernel``.
"""

from __future__ import annotations

import numpy as np

from wizsim.deal.kernels import rand_below
from wizsim.envs.encoding import N_ACTIONS, OBS_DIM, encode_observation, round_action_mask, value_of
from wizsim.table.players import Player
from wizsim.table.round import Round


def sample_actions(masks: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row: the k-th legal action in ascending order, k drawn from the
    row's stream ``rng[i]`` (advanced); -1 for a row with none."""
    out = np.full(len(masks), -1, np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        if len(legal):
            out[i] = legal[int(rand_below(rng[i:i + 1], len(legal)))]
    return out


class ReferenceVectorEnv:
    """``VectorEnv``'s semantics on ``n`` ``wizsim.Round`` objects (see ``envs.vector``)."""

    def __init__(self, n: int, players: int = 4, r: int = 5, *, hook: bool = False, seed: int = 0,
                 opponents: str | None = None, seat: int | None = None, auto_reset: bool = True):
        self.n, self.players, self.r, self.hook, self.seed = n, players, r, hook, seed
        self.opponents = None if opponents is None else Player(opponents)
        self.fixed_seat, self.auto_reset = seat, auto_reset
        self.rounds: list[Round | None] = [None] * n
        self.learner = [0] * n
        self.episode = [-1] * n

    def _deal(self, i: int) -> None:
        index = self.episode[i] * self.n + i
        rd = Round(self.players, self.r, seed=self.seed, index=index, hook=self.hook)
        self.rounds[i] = rd
        self.learner[i] = self.fixed_seat if self.fixed_seat is not None else index % self.players + 1
        self._opponents(i)

    def _opponents(self, i: int) -> None:
        rd = self.rounds[i]
        if self.opponents is None:
            return
        while rd.phase != "over" and rd.current_player != self.learner[i]:
            rd.apply(self.opponents.decide(rd.observation(rd.current_player), rd._rng))

    def _seat(self, i: int) -> int:
        rd = self.rounds[i]
        if self.opponents is not None:
            return self.learner[i]
        return rd.current_player if rd.phase != "over" else 1

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(obs (n, OBS_DIM) int8, masks (n, N_ACTIONS) int8, seat (n,) int8) as ``VectorEnv`` gives them."""
        obs = np.zeros((self.n, OBS_DIM), np.int8)
        masks = np.zeros((self.n, N_ACTIONS), np.int8)
        seats = np.zeros(self.n, np.int8)
        for i, rd in enumerate(self.rounds):
            seat = self._seat(i)
            seats[i] = seat
            encode_observation(rd.observation(seat), obs[i])
            if rd.current_player == seat:
                masks[i] = round_action_mask(rd)
        return obs, masks, seats

    def reset(self, rows=None):
        for i in range(self.n) if rows is None else rows:
            self.episode[i] += 1
            self._deal(i)
        return self.observe()[:2]

    def step(self, actions):
        p = self.players
        rewards = np.zeros((self.n, 1 if self.opponents else p), np.float32)
        dones = np.zeros(self.n, bool)
        for i, rd in enumerate(self.rounds):
            if rd.phase == "over":
                dones[i] = True
                continue
            phase, value = value_of(int(actions[i]))
            if phase != rd.phase:
                raise ValueError(f"action {int(actions[i])} is not legal in row {i}")
            rd.apply(value)
            self._opponents(i)
            if rd.phase == "over":
                dones[i] = True
                scores = rd.scores()
                rewards[i] = scores[self.learner[i] - 1] if self.opponents else scores
                if self.auto_reset:
                    self.episode[i] += 1
                    self._deal(i)
        obs, masks, _ = self.observe()
        return obs, masks, (rewards[:, 0] if self.opponents else rewards), dones
