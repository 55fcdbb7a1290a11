"""Wizard as a PettingZoo AEC environment (``pip install "wizsim[rl]"``), on the open table's
``wizsim.Round`` / ``wizsim.Game``: the rules are the engine's, this module only translates.

``env(players=4, r=None, hook=False, render_mode=None)``:

- ``r`` an int: one round of ``r`` cards per episode; the agents ``"player_0".."player_{n-1}"`` are seats
  1..n (seat 1 bids first, seat n deals);
- ``r=None``: a whole game (rounds 1..60/players, the deal passing left); agent ``"player_k"`` is player
  k+1 for the whole game, sitting at a different seat each round.

Each agent observes ``{"observation": float32 (OBS_DIM,), "action_mask": int8 (N_ACTIONS,)}``
(``wizsim.envs.encoding``: the seat's view only, and the flat action space 0..59 cards, 60..80 bids,
81..84 trump suits); the mask is all zeros when it is not that agent's decision. The reward is each
agent's round score (docs/rules.md 6: 20 + 10 per trick on the bid, else -10 per trick off) when a round
ends, so an agent's return over a whole game is its game total. ``reset(seed=...)`` makes episodes
repeatable. ``render()`` gives the table as text (``"ansi"`` returns it, ``"human"`` prints it).
"""

from __future__ import annotations

import numpy as np

from wizsim.envs._extra import needs_extra

with needs_extra("wizsim.envs.pettingzoo", "PettingZoo and Gymnasium"):
    from gymnasium import spaces
    from pettingzoo import AECEnv

from wizsim.cards import format_card, format_cards
from wizsim.config import check_count, n_game_rounds
from wizsim.envs.encoding import MAX_ROUND, N_ACTIONS, OBS_DIM, encode_observation, round_action_mask, value_of
from wizsim.table.game import Game
from wizsim.table.round import Round


def env(players: int = 4, r: int | None = None, hook: bool = False, render_mode: str | None = None) -> WizardEnv:
    """A PettingZoo AEC environment of one Wizard round (``r`` cards) or, with ``r=None``, a whole game."""
    return WizardEnv(players=players, r=r, hook=hook, render_mode=render_mode)


class WizardEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "wizard_v0", "is_parallelizable": False}

    def __init__(self, players: int = 4, r: int | None = None, hook: bool = False, render_mode: str | None = None):
        super().__init__()
        self.n_players = check_count(players, "players", 3, 6)
        self.r = None if r is None else check_count(r, "r", 1, n_game_rounds(self.n_players))
        self.hook = bool(hook)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{k}" for k in range(self.n_players)]
        obs_space = spaces.Dict({
            "observation": spaces.Box(0, MAX_ROUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.table: Round | Game | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- seats and agents ----------------------------------------------------------------------------
    @property
    def round(self) -> Round:
        return self.table.round if isinstance(self.table, Game) else self.table

    def _agent_number(self, agent: str) -> int:
        """The table's number for ``agent``: its seat (one round) or its player number (a game)."""
        return self.possible_agents.index(agent) + 1

    def _seat(self, agent: str) -> int:
        k = self._agent_number(agent)
        return self.table.seat_of(k) if isinstance(self.table, Game) else k

    def _agent_at_turn(self) -> str:
        return self.possible_agents[self.table.current_player - 1]

    # -- the AEC interface ---------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        table_seed = int(self._seeds.integers(0, 2**62))
        if self.r is None:
            self.table = Game(self.n_players, seed=table_seed, hook=self.hook)
        else:
            self.table = Round(self.n_players, self.r, seed=table_seed, hook=self.hook)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_at_turn()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self._seat(agent)
        rd = self.round
        obs = encode_observation(rd.observation(seat))
        mask = round_action_mask(rd) if rd.current_player == seat else np.zeros(N_ACTIONS, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        phase, value = value_of(action)
        rd = self.round
        if phase != rd.phase:
            raise ValueError(f"action {int(action)} is a {phase} action, but {agent} has a {rd.phase} decision now")
        self.table.apply(value)
        self.rewards = dict.fromkeys(self.agents, 0)
        if rd.phase == "over":  # the round just ended: each agent scores it
            scores = rd.scores()
            for a in self.agents:
                k = self._agent_number(a)
                seat = self.table.seat_of(k, len(self.table.history) - 1) if isinstance(self.table, Game) else k
                self.rewards[a] = scores[seat - 1]
        if self.table.phase == "over":
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_at_turn()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        rd = self.round
        lines = [repr(self.table)] if isinstance(self.table, Game) else []
        turn = "none" if rd.turn_up < 0 else format_card(rd.turn_up)
        trump = "?" if rd.trump is None else ("none" if rd.trump < 0 else "SHDC"[rd.trump])
        lines.append(f"round of {rd.r} cards, turn-up {turn}, trump {trump}, phase {rd.phase}")
        obs = rd.observation(1)
        for seat in range(1, self.n_players + 1):
            live = rd.observation(seat).hand
            bid = rd.bids[seat - 1]
            lines.append(f"  seat {seat}{' (dealer)' if seat == self.n_players else ''}: bid "
                         f"{'-' if bid is None else bid}, tricks {rd.tricks[seat - 1]}, hand {format_cards(live) or '-'}")
        if obs.trick:
            lines.append("  trick: " + " ".join(format_card(c) for c in obs.trick) + f" (led by seat {obs.leader})")
        if rd.phase == "over":
            lines.append("  scores: " + ", ".join(map(str, rd.scores())))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


__all__ = ["WizardEnv", "env"]
