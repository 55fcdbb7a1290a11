"""Gymnasium environments (``pip install "wizsim[rl]"``): one seat of Wizard against chosen opponents, for
single-agent learners (Stable-Baselines3 and sb3-contrib's MaskablePPO, CleanRL, RLlib).

``WizardSeatEnv(players=4, seat=None, opponents="heuristic", r=5, hook=False, seed=None, illegal="end",
render_mode=None)``, also ``gymnasium.make("wizsim/Wizard-v0", ...)`` once this module is imported:

- the learner sits at ``seat`` (1..players; seat 1 sits left of the dealer, bids first and leads trick one,
  seat ``players`` deals; ``None``: a seat drawn at each reset); the others are ``opponents``: a policy
  name (``"heuristic"``, ``"search:worlds=4"``...), a player object (``trump``, ``bid``, ``card``
  methods), or a list of ``players - 1`` of these for the other seats in seat order;
- ``r`` an int: an episode is one round of ``r`` cards; ``r=None``: a whole game (rounds 1..60/players,
  the deal passing left), and then ``seat`` is the learner's player number, its seat moving round by round;
- observation: the ``wizsim.envs.encoding`` tensor of the learner's view, int8 ``Box(0, 20, (611,))``
  (cast to float for a network); action: ``Discrete(85)`` in the flat space (0..59 play that card,
  60..80 bid 0..20, 81..84 name trump S, H, D, C on a turned-up Wizard when the learner deals);
- the legal actions: ``info["action_mask"]`` (int8, 85) and ``env.action_masks()`` (bool), which
  sb3-contrib's MaskablePPO reads; all 0 once the episode is over;
- reward: the learner's round score (docs/rules.md: 20 + 10 a trick on its bid, else -10 a trick off) in the
  step that ends the round, 0 otherwise; over a whole game the return is the learner's game total;
- ``illegal="end"`` (the default, so that learners without masks and ``check_env`` run): an illegal action
  ends the episode with reward ``-10 * (r + 1)``, below any score the round could give, and
  ``info["illegal_action"] = True``; ``illegal="raise"`` raises ``ValueError`` naming the legal actions.

Opponents decide between the learner's decisions, inside ``reset`` and ``step``. With a policy name and
a round size they decide in ``VectorEnv``'s kernels (one row); with player objects, or over whole games, on
wizsim's open table (``wizsim.Round``/``wizsim.Game``). Either way the rules are the engine's and built-in
opponents draw from each round's play stream, so both play the same episodes: an episode is the deal
``wizsim.Round(players, r, seed=env.table_seed)`` (``wizsim.Game(players, seed=env.table_seed)``) with
the learner at ``env.learner_seat``, and ``reset(seed=s)`` makes the same episodes again (a user's
player object is as repeatable as it is).

``WizardVectorEnv(num_envs, players=4, r=5, seat=None, opponents="heuristic", hook=False, seed=None,
illegal="end", copy=False)`` is a ``gymnasium.vector.VectorEnv`` of ``num_envs`` such rounds over the
batched kernels of ``wizsim.envs.vector.VectorEnv`` (opponents a policy name, played inside the kernel; a
round per episode; ``seat=None`` rotates the learner's seat with the round index). It autoresets in the
same step (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``, as Stable-Baselines3's vector
envs do): a row whose round ended returns the next round's first observation, its last one in
``info["final_obs"]`` (an int8 (num_envs, 611) array, zero in the rows that did not end;
``info["_final_obs"]`` marks the rows that ended). ``reset(seed=s)`` seeds the run: round ``k`` of row
``i`` is round index ``k * num_envs + i`` of ``s``. Rewards are float64 (num_envs,), terminations as in
the single env, truncations always False. As ``VectorEnv`` does, it hands out its own observation, mask
and ``final_obs`` arrays, which the next step overwrites (copy what you keep; changing them changes
nothing of the rules); ``copy=True`` gives fresh
arrays at each step, as Gymnasium's ``SyncVectorEnv`` does by default, at a cost in speed.
``gymnasium.make_vec("wizsim/Wizard-v0", num_envs, vectorization_mode="vector_entry_point")`` makes it.
"""

from __future__ import annotations

import numpy as np

from wizsim.envs._extra import needs_extra

with needs_extra("wizsim.envs.gym", "Gymnasium"):
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

from wizsim.cards import format_cards
from wizsim.config import ConfigError, check_count, n_game_rounds
from wizsim.envs.encoding import (
    MAX_ROUND,
    N_ACTIONS,
    OBS_DIM,
    PHASES,
    action_name,
    encode_observation,
    fields,
    round_action_mask,
)
from wizsim.envs.encoding import value_of as decode_action
from wizsim.envs.vector import VectorEnv
from wizsim.table.game import Game
from wizsim.table.players import as_player, is_player
from wizsim.table.round import Round

ENV_ID = "wizsim/Wizard-v0"
ILLEGAL = ("end", "raise")


def observation_space() -> spaces.Box:
    return spaces.Box(0, MAX_ROUND, (OBS_DIM,), np.int8)


def illegal_reward(r: int) -> float:
    """The reward of an illegal action that ends the episode (``illegal="end"``): below any round score."""
    return -10.0 * (r + 1)


def _check_illegal(illegal) -> str:
    if not isinstance(illegal, str) or illegal not in ILLEGAL:
        raise ConfigError(f"illegal must be 'end' (the episode ends with a penalty) or 'raise', got {illegal!r:.40}")
    return illegal


def _check_seat(seat, players: int) -> int | None:
    return None if seat is None else check_count(seat, "seat", 1, players)


class WizardSeatEnv(gymnasium.Env):
    """One seat of Wizard against chosen opponents (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, players: int = 4, seat: int | None = None, opponents="heuristic", r: int | None = 5, *,
                 hook: bool = False, seed: int | None = None, illegal: str = "end", render_mode: str | None = None):
        self.players = check_count(players, "players", 3, 6)
        self.r = None if r is None else check_count(r, "r", 1, n_game_rounds(self.players))
        self.seat = _check_seat(seat, self.players)
        self.hook = bool(hook)
        self.illegal = _check_illegal(illegal)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                              f"got {render_mode!r:.40}")
        self.render_mode = render_mode
        self._opponents = self._seat_opponents(opponents)
        self.opponents = opponents
        # One round against a policy by name: the batched kernels with one row, which play the very rounds
        # the open table plays (``envs.reference`` is their twin) at a fraction of its cost.
        self._kernels: dict[int, VectorEnv] | None = {} if isinstance(opponents, str) and self.r else None
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.table: Round | Game | None = None
        self._vec: VectorEnv | None = None
        self.table_seed: int | None = None  # the episode's deal: wizsim.Round(players, r, seed=table_seed)
        self._me = 1  # the learner's seat (one round) or player number (a game)
        self._paid = 0  # rounds whose score the learner has been given
        self._over = True
        self._obs = np.zeros(OBS_DIM, np.int8)
        self._mask = np.zeros(N_ACTIONS, np.int8)
        if seed is not None:
            super().reset(seed=seed)

    def _seat_opponents(self, opponents) -> list:
        """One player object per other seat (or player number), in order."""
        n = self.players - 1
        if isinstance(opponents, str) or is_player(opponents):
            return [as_player(opponents)] * n
        if not isinstance(opponents, (list, tuple)):
            raise ConfigError(f"opponents must be a policy name, a player object or a list of {n} of them, got "
                              f"{type(opponents).__name__}")
        if len(opponents) != n:
            raise ConfigError(f"opponents: give {n} (one per other seat, in seat order), got {len(opponents)}")
        return [as_player(o) for o in opponents]

    # -- the open table: any opponents, whole games --------------------------------------------------
    @property
    def round(self) -> Round | None:
        return self.table.round if isinstance(self.table, Game) else self.table

    def _opponent(self, who: int):
        return self._opponents[who - 1 if who < self._me else who - 2]

    def _pay(self) -> float:
        """The learner's score of every round that ended since the last call."""
        reward = 0.0
        if isinstance(self.table, Game):
            for k in range(self._paid, len(self.table.history)):
                reward += self.table.history[k].scores()[self.table.seat_of(self._me, k) - 1]
            self._paid = len(self.table.history)
        elif self.table.is_over and not self._paid:
            reward, self._paid = float(self.table.scores()[self._me - 1]), 1
        return reward

    def _table_play(self, action: int | None) -> float:
        """The learner's action (None at the start), then the opponents' until its next decision; the
        learner's scores of the rounds that ended meanwhile."""
        reward = 0.0
        if action is not None:
            self.table.apply(decode_action(action)[1])
            reward += self._pay()
        while not self.table.is_over and self.table.current_player != self._me:
            self.round._step(self._opponent(self.table.current_player))  # built-ins draw from the round's stream
            if isinstance(self.table, Game):
                self.table._book()
            reward += self._pay()
        encode_observation(self.table.observation(self._me), self._obs, np.int8)
        to_act = not self.table.is_over and self.table.current_player == self._me
        self._mask[:] = round_action_mask(self.round) if to_act else 0
        self._over = self.table.is_over
        return reward

    # -- the Gymnasium interface ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        table_seed = self.table_seed = int(self.np_random.integers(0, 2**62))
        self._me = self.seat if self.seat is not None else int(self.np_random.integers(1, self.players + 1))
        if self._kernels is not None:  # round index 0 of ``table_seed``: ``Round(..., seed=table_seed)``
            vec = self._kernels.get(self._me)
            if vec is None:
                vec = self._kernels[self._me] = VectorEnv(1, self.players, self.r, hook=self.hook, seed=0,
                                                          opponents=self.opponents, seat=self._me, auto_reset=False)
            self._vec = vec
            obs, masks = vec.reset(seed=table_seed)
            self._obs[:], self._mask[:], self._over = obs[0], masks[0], False
        else:
            if self.r is None:
                self.table = Game(self.players, seed=table_seed, hook=self.hook)
            else:
                self.table = Round(self.players, self.r, seed=table_seed, hook=self.hook)
            self._paid = 0
            self._table_play(None)  # no round ends before the learner's first decision
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), {"action_mask": self._mask.copy()}

    def step(self, action):
        if self._over:
            raise RuntimeError("call reset(): no episode is in progress (none begun, or the last one is over)")
        a = int(action)
        if not (0 <= a < N_ACTIONS and self._mask[a]):
            legal = ", ".join(action_name(x) for x in np.flatnonzero(self._mask))
            if self.illegal == "raise":
                raise ValueError(f"action {a} ({action_name(a) if 0 <= a < N_ACTIONS else 'not an action'}) is not "
                                 f"legal for the learner now: legal are {legal}")
            self._over = True
            r = self._vec.r if self._kernels is not None else self.round.r
            return self._obs.copy(), illegal_reward(r), True, False, {"action_mask": np.zeros(N_ACTIONS, np.int8),
                                                                       "illegal_action": True}
        if self._kernels is not None:
            obs, masks, rewards, dones = self._vec.step(np.array([a]))
            self._obs[:], self._mask[:], self._over = obs[0], masks[0], bool(dones[0])
            reward = float(rewards[0])
        else:
            reward = self._table_play(a)
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), reward, self._over, False, {"action_mask": self._mask.copy()}

    @property
    def learner_seat(self) -> int:
        """The learner's seat in this episode (its player number when an episode is a game)."""
        return self._me

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as bool (N_ACTIONS,): what sb3-contrib's MaskablePPO asks for."""
        return self._mask.astype(bool)

    def render(self):
        if self.render_mode is None:
            return None
        f, p = fields(self._obs), self.players
        bids = ",".join(str(b) if m else "?" for b, m in zip(f["bid"][:p], f["bid_made"][:p], strict=True))
        text = (f"seat {self._me}, phase {PHASES[int(np.argmax(f['phase']))]}, hand "
                f"{format_cards(np.flatnonzero(f['hand'])) or '-'}, bids {bids}, tricks "
                f"{','.join(map(str, f['tricks'][:p]))} (from the learner's seat round the table)")
        if self.render_mode == "human":
            print(text)
            return None
        return text


class WizardVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` rounds, one learner seat each, over ``VectorEnv``'s kernels (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 64, players: int = 4, r: int = 5, *, seat: int | None = None,
                 opponents: str = "heuristic", hook: bool = False, seed: int | None = None, illegal: str = "end",
                 copy: bool = False):
        if not isinstance(opponents, str):
            raise ConfigError("opponents must be a policy name here (the kernels play them); for player objects use "
                              "gymnasium.vector.SyncVectorEnv over WizardSeatEnv")
        if r is None:
            raise ConfigError("r must be a round size: WizardVectorEnv plays single rounds (WizardSeatEnv plays games)")
        self.illegal = _check_illegal(illegal)
        self.copy = bool(copy)
        self._env = VectorEnv(num_envs, players, r, hook=hook, seed=seed, opponents=opponents,
                              seat=_check_seat(seat, check_count(players, "players", 3, 6)), auto_reset=False)
        self.num_envs = self._env.n
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rows = np.arange(self.num_envs)
        self._penalty = illegal_reward(self._env.r)
        self._started = False
        n = self.num_envs
        self._legal = np.zeros((n, N_ACTIONS), np.int8)  # the legal actions, whatever a caller does to masks
        self._final = np.zeros((n, OBS_DIM), np.int8)  # final_obs when copy is False (reused)
        self._final_rows = np.zeros(0, np.int64)

    @property
    def seat(self) -> np.ndarray:
        """The learner's seat (1..players) in each row now."""
        return self._env.seat.copy()

    def _out(self, obs, masks, info: dict):
        np.copyto(self._legal, masks)
        info["action_mask"] = masks.copy() if self.copy else masks
        return obs.copy() if self.copy else obs

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise ConfigError(f"seed must be one whole number (the run's seed: row i's round k is round index "
                              f"k * num_envs + i of it), got {seed!r:.40}")
        obs, masks = self._env.reset(seed=seed)
        self._started = True
        info = {}
        return self._out(obs, masks, info), info

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        env = self._env
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} whole numbers (one flat action per row), got "
                             f"shape {a.shape} of {a.dtype}")
        bad = None
        try:  # VectorEnv checks every row first and steps none when one is illegal
            obs, masks, rewards, dones = env.step(a)
        except ValueError:
            if self.illegal == "raise":
                raise
            a = a.astype(np.int64)
            bad = (a < 0) | (a >= N_ACTIONS)
            bad[~bad] = self._legal[self._rows[~bad], a[~bad]] == 0
            bad_obs = env.obs[bad]  # the row's round is abandoned: stepped with a legal action, then dealt again
            a[bad] = np.argmax(self._legal[bad], axis=1)
            obs, masks, rewards, dones = env.step(a)
        rewards = rewards.astype(np.float64)
        terminated = dones.copy()
        info = {}
        if bad is not None:
            rewards[bad] = self._penalty
            terminated |= bad
            info["illegal_action"], info["_illegal_action"] = bad, bad.copy()
        ended = np.flatnonzero(terminated)
        if ended.size:
            if self.copy:
                final = np.zeros_like(obs)
            else:  # the buffer of the last steps: clear the rows that ended then
                final = self._final
                final[self._final_rows] = 0
                self._final_rows = ended
            final[ended] = obs[ended]
            if bad is not None:
                final[bad] = bad_obs
            info["final_obs"], info["_final_obs"] = final, terminated.copy()
            obs, masks = env.reset(rows=ended)
        return self._out(obs, masks, info), rewards, terminated, np.zeros(self.num_envs, bool), info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every row now, bool (num_envs, N_ACTIONS)."""
        return self._legal.astype(bool)

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per row, drawn in a kernel (``VectorEnv.sample_actions``)."""
        return self._env.sample_actions()


def _vector_entry_point(num_envs: int, **kwargs) -> WizardVectorEnv:
    kwargs.pop("render_mode", None)
    return WizardVectorEnv(num_envs, **kwargs)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=WizardSeatEnv, vector_entry_point=_vector_entry_point)


__all__ = ["ENV_ID", "WizardSeatEnv", "WizardVectorEnv", "illegal_reward"]
