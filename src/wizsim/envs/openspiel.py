"""Wizard as an OpenSpiel Python game (``pip install "wizsim[rl]"``): importing this module registers
``"python_wizard"``, so ``pyspiel.load_game("python_wizard", {"players": 4, "r": 3})`` works and
OpenSpiel's own algorithms (random simulation tests, MCTS, IS-MCTS, CFR on tiny rounds) play Wizard.

One game is one round of ``r`` cards (docs/rules.md) with parameters ``players`` (3..6), ``r`` (1..60/players,
default 3 so that tree searches stay small) and ``hook`` (the hook variant). Players 0..players-1 are
seats 1..players: player 0 bids first and leads trick one, player ``players - 1`` deals.

- Chance deals one card at a time, round-robin from player 0, then turns up the next card (none in the
  last round); every outcome of a chance node is a card id 0..59, uniform over the cards left, so the
  deal is uniform.
- Actions are the flat actions of ``wizsim.envs.encoding`` (0..59 cards, 60..80 bids 0..20, 81..84 the
  dealer's trump suit on a turned-up Wizard); ``num_distinct_actions`` is 85.
- Returns are the round scores (docs/rules.md 6) at the end: a general-sum game.
- The observer (``make_py_observer``) gives the observation tensor of ``encoding`` (611 floats: the seat's
  view), and with perfect recall that tensor followed by the order of play (``r * players`` slots of 60);
  strings are the open table's information state text. ``resample_from_infostate`` redeals the hidden
  cards with wizsim's world sampler (``Round.resample``), which IS-MCTS calls.

Once the deal is complete the state is a ``wizsim.Round``: the rules are the engine's.
"""

from __future__ import annotations

import numpy as np

from wizsim.envs._extra import needs_extra

with needs_extra("wizsim.envs.openspiel", "OpenSpiel"):
    import pyspiel

from wizsim.cards import N_CARDS
from wizsim.config import check_count, n_game_rounds
from wizsim.envs.encoding import (
    HAND,
    HOOK,
    OBS_DIM,
    PLAYERS,
    ROUND,
    SEAT,
    action_name,
    card_label,
    encode_observation,
    round_action_mask,
    value_of,
)
from wizsim.envs.encoding import N_ACTIONS as _N_ACTIONS
from wizsim.table.round import Round

GAME_NAME = "python_wizard"
DEFAULT_PLAYERS = 4
DEFAULT_R = 3

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Wizard (wizsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": DEFAULT_PLAYERS, "r": DEFAULT_R, "hook": False},
)


def _game_info(players: int, r: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(num_distinct_actions=_N_ACTIONS, max_chance_outcomes=N_CARDS, num_players=players,
                            min_utility=-10.0 * r, max_utility=20.0 + 10.0 * r, utility_sum=None,
                            max_game_length=1 + players + players * r)  # trump, bids, cards


class WizardGame(pyspiel.Game):
    """One round of Wizard; parameters ``players``, ``r``, ``hook``."""

    def __init__(self, params=None):
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        players = check_count(int(params["players"]), "players", 3, 6)
        r = check_count(int(params["r"]), "r", 1, n_game_rounds(players))
        super().__init__(GAME_TYPE, _game_info(players, r), params)
        self.players, self.r, self.hook = players, r, bool(params["hook"])

    def new_initial_state(self):
        return WizardState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return WizardObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class WizardState(pyspiel.State):
    """A round being dealt (chance nodes) and then played (a ``wizsim.Round``)."""

    def __init__(self, game: WizardGame):
        super().__init__(game)
        self.players, self.r, self.hook = game.players, game.r, game.hook
        self._last = self.players * self.r == N_CARDS
        self.deal: list[int] = []  # cards in order of dealing; the turned-up card last
        self.round: Round | None = None
        self.moves: list[int] = []  # the players' flat actions in order

    # -- the deal ------------------------------------------------------------------------------------
    def _n_deal(self) -> int:
        return self.players * self.r + (0 if self._last else 1)

    def _dealt_to(self, player: int) -> list[int]:
        return [c for k, c in enumerate(self.deal[:self.players * self.r]) if k % self.players == player]

    def current_player(self):
        if self.round is None:
            return pyspiel.PlayerId.CHANCE
        if self.round.phase == "over":
            return pyspiel.PlayerId.TERMINAL
        return self.round.current_player - 1

    def chance_outcomes(self):
        left = sorted(set(range(N_CARDS)) - set(self.deal))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _legal_actions(self, player):
        if self.round is None or self.round.phase == "over" or player != self.round.current_player - 1:
            return []
        return [int(a) for a in np.flatnonzero(round_action_mask(self.round))]

    def _apply_action(self, action):
        if self.round is None:
            self.deal.append(int(action))
            if len(self.deal) == self._n_deal():
                hands = [self._dealt_to(p) for p in range(self.players)]
                turn_up = -1 if self._last else self.deal[-1]
                self.round = Round(self.players, self.r, hands=hands, turn_up=turn_up, hook=self.hook)
            return
        phase, value = value_of(action)
        if phase != self.round.phase:
            raise ValueError(f"{action_name(action)} is not a {self.round.phase} action")
        self.round.apply(value)
        self.moves.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            k = len(self.deal)
            if k < self.players * self.r:
                return f"deal {card_label(action)} to player {k % self.players}"
            return f"turn up {card_label(action)}"
        return action_name(action)

    def is_terminal(self):
        return self.round is not None and self.round.phase == "over"

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.players
        return [float(s) for s in self.round.scores()]

    def __str__(self):
        if self.round is None:
            return "dealing: " + " | ".join(_labels(self._dealt_to(p)) for p in range(self.players))
        rd = self.round
        hands = " | ".join(_labels(rd.observation(s).hand) for s in range(1, self.players + 1))
        turn_up = "none" if rd.turn_up < 0 else card_label(rd.turn_up)
        trump = "?" if rd.trump is None else "none" if rd.trump < 0 else "SHDC"[rd.trump]
        bids = ",".join("?" if b is None else str(b) for b in rd.bids)
        play = " ".join(f"{s}:{card_label(c)}" for s, c in rd.played) or "-"
        return (f"hands {hands} | turn-up {turn_up} trump {trump} | bids {bids} | "
                f"tricks {','.join(map(str, rd.tricks))} | play {play}")

    # -- what IS-MCTS needs --------------------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler=None, rng=None):
        """A state of the same history for ``player_id`` with the other players' hidden cards redealt
        consistently with what it knows (wizsim's world sampler); ``probability_sampler`` is ignored
        (Python cannot call OpenSpiel's samplers), ``rng`` a NumPy Generator or seed."""
        rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        out = self.get_game().new_initial_state()
        if self.round is None:  # mid-deal: the other players' cards so far come from the unseen ones
            mine = set(self._dealt_to(player_id))
            unseen = [c for c in range(N_CARDS) if c not in mine]
            rng.shuffle(unseen)
            it = iter(unseen)
            for k, c in enumerate(self.deal):
                out.apply_action(c if k % self.players == player_id and k < self.players * self.r else next(it))
            return out
        world = self.round.resample(player_id + 1, rng)
        hands = [list(h) for h in world.hands]
        for k in range(self.players * self.r):
            out.apply_action(hands[k % self.players][k // self.players])
        if not self._last:
            out.apply_action(self.round.turn_up)
        for a in self.moves:
            out.apply_action(a)
        return out


class WizardObserver:
    """OpenSpiel's PyObserver: tensors and strings of one player's view."""

    def __init__(self, game: WizardGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.players, self.r = game.players, game.r
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        n_plays = self.players * self.r
        size = OBS_DIM + (n_plays * N_CARDS if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBS_DIM]}
        if self.perfect_recall:
            self.dict["play_order"] = self.tensor[OBS_DIM:].reshape(n_plays, N_CARDS)

    def set_from(self, state: WizardState, player: int):
        self.tensor.fill(0)
        obs = self.tensor[:OBS_DIM]
        if state.round is None:
            for c in state._dealt_to(player):
                obs[HAND + c] = 1
            obs[ROUND] = self.r
            obs[PLAYERS + self.players - 3] = 1
            obs[HOOK] = int(state.hook)
            obs[SEAT + player] = 1
        else:
            view = state.round.observation(player + 1)
            encode_observation(view, obs)
            if self.perfect_recall:
                for k, (_, c) in enumerate(view.played):
                    self.dict["play_order"][k, c] = 1
        if not self.private:
            obs[HAND:HAND + N_CARDS] = 0
        if not self.public:
            keep = obs[HAND:HAND + N_CARDS].copy()
            self.tensor.fill(0)
            obs[HAND:HAND + N_CARDS] = keep

    def string_from(self, state: WizardState, player: int) -> str:
        head = f"players {self.players} round {self.r} seat {player + 1}"
        if state.round is None:
            hand = _labels(state._dealt_to(player)) if self.private else "?"
            return f"{head} | dealing | hand {hand}"
        v = state.round.observation(player + 1)
        hand = _labels(v.hand) if self.private else "?"
        turn_up = "none" if v.turn_up < 0 else card_label(v.turn_up)
        trump = "?" if v.trump is None else "none" if v.trump < 0 else "SHDC"[v.trump]
        bids = ",".join("?" if b is None else str(b) for b in v.bids)
        voids = ",".join("".join("SHDC"[k] for k in sorted(x)) or "-" for x in v.voids)
        text = (f"{head} | phase {v.phase} | hand {hand} | turn-up {turn_up} trump {trump} | bids {bids} | "
                f"tricks {','.join(map(str, v.tricks))} | voids {voids}")
        if self.perfect_recall:  # who played what, in order
            return text + " | play " + (" ".join(f"{s}:{card_label(c)}" for s, c in v.played) or "-")
        gone = _labels(sorted(c for _, c in v.played[:len(v.played) - len(v.trick)]))
        return text + f" | leader {v.leader} trick {' '.join(card_label(c) for c in v.trick) or '-'} | gone {gone}"


def _labels(cards) -> str:
    # Card ids, not just names: the four Wizards (Jesters) are different actions to OpenSpiel, so two
    # states whose legal actions differ must not share an information state string.
    return ",".join(card_label(c) for c in cards) or "-"


pyspiel.register_game(GAME_TYPE, WizardGame)

__all__ = ["GAME_NAME", "GAME_TYPE", "WizardGame", "WizardObserver", "WizardState"]
