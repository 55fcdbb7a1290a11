"""A whole game of Wizard anyone can step: rounds 1..60/players, the deal passing left each round.

Players are numbered 1..players for the whole game; each round seats them from the dealer's left (docs/rules.md:
seat 1 sits left of the dealer), exactly as ``simulate_games`` does: the first dealer is drawn from the
game's stream, round k (0-based) is dealt by player ``first_dealer + k`` and its seat s (0-based) is player
``first_dealer + k + 1 + s`` (mod players), and round k is round index ``index * R + k`` of the run.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np

from wizsim.config import check_count, check_flag, check_seed, n_game_rounds
from wizsim.deal.kernels import GAME_STREAM, rand_below, stream_key
from wizsim.table.observation import Observation
from wizsim.table.players import check_timeout
from wizsim.table.round import OVER, Round, seat_players


class Game:
    """A game in progress: ``.round`` is the current ``Round``; ``current_player``, ``observation`` and
    ``scores`` speak of players 1..players (not seats)."""

    def __init__(self, players: int, *, seed: int | None = None, hook: bool = False, index: int = 0):
        self.players = check_count(players, "players", 3, 6)
        self.hook = check_flag(hook, "hook")
        self.seed = check_seed(seed)
        self.index = check_count(index, "index", 0, 2**40)
        self.n_rounds = n_game_rounds(self.players)
        rng = np.array([stream_key(np.uint64(self.seed), np.int64(self.index), GAME_STREAM)], np.uint64)
        self.first_dealer = int(rand_below(rng, self.players)) + 1  # a player number
        self._totals = [0] * self.players
        self.history: list[Round] = []  # the rounds over, in order (the last round stays current too)
        self._k = 0
        self.round = self._deal(0)

    def _deal(self, k: int) -> Round:
        return Round(self.players, k + 1, seed=self.seed, hook=self.hook, index=self.index * self.n_rounds + k)

    # seats and players: 0-based arithmetic, 1-based numbers
    def dealer(self, k: int | None = None) -> int:
        """The player who deals round ``k`` (0-based, 0..n_rounds-1; default the current one)."""
        k = self._k if k is None else check_count(k, "k (a round index)", 0, self.n_rounds - 1)
        return (self.first_dealer - 1 + k) % self.players + 1

    def player_at(self, seat: int, k: int | None = None) -> int:
        """The player (1..players) in seat ``seat`` (1..players) of round ``k`` (default the current one)."""
        seat = check_count(seat, "seat", 1, self.players)
        return (self.dealer(k) + seat - 1) % self.players + 1

    def seat_of(self, player: int, k: int | None = None) -> int:
        """The seat (1..players) of player ``player`` (1..players) in round ``k`` (default the current one)."""
        player = check_count(player, "player", 1, self.players)
        return (player - self.dealer(k) - 1) % self.players + 1

    @property
    def phase(self) -> str:
        return self.round.phase

    @property
    def is_over(self) -> bool:
        return self.round.phase == OVER

    @property
    def current_player(self) -> int | None:
        seat = self.round.current_player
        return None if seat is None else self.player_at(seat)

    def legal_actions(self) -> list[int]:
        return self.round.legal_actions()

    def apply(self, action) -> None:
        self.round.apply(action)
        self._book()

    def _book(self) -> None:
        """Once the current round is over: its scores into the totals, and the next round dealt."""
        if self.round.phase != OVER or self.round in self.history:
            return
        for seat, score in enumerate(self.round.scores(), start=1):
            self._totals[self.player_at(seat) - 1] += score
        self.history.append(self.round)
        if self._k + 1 < self.n_rounds:
            self._k += 1
            self.round = self._deal(self._k)

    def observation(self, player: int) -> Observation:
        player = check_count(player, "player", 1, self.players)
        obs = self.round.observation(self.seat_of(player))
        before = list(self._totals)
        if self.round.phase == OVER:  # the last round's scores are in the totals already
            for seat, score in enumerate(self.round.scores(), start=1):
                before[self.player_at(seat) - 1] -= score
        by_seat = tuple(before[self.player_at(s) - 1] for s in range(1, self.players + 1))
        return replace(obs, player=player, game_round=self._k + 1, totals=by_seat)

    def information_state(self, player: int) -> str:
        obs = self.observation(player)
        totals = ",".join(map(str, obs.totals))
        return f"game round {obs.game_round} of {self.n_rounds} player {player} totals {totals} | " \
               + obs.information_state()

    def scores(self) -> tuple[int, ...]:
        """The running totals by player (1..players in order)."""
        return tuple(self._totals)

    def resample(self, player: int, rng=None) -> Game:
        """A copy whose current round's hidden cards are redealt consistently with what ``player`` knows."""
        out = copy.copy(self)
        out._totals = list(self._totals)
        out.history = list(self.history)
        out.round = self.round.resample(self.seat_of(player), rng)
        return out

    def play(self, players, *, decision_timeout: float | None = None) -> tuple[int, ...]:
        """Play the game to its end with one player per player number (names or player objects, player 1
        first); returns the totals. Built-in players draw from each round's stream: a table of them plays
        exactly the game ``simulate_games`` plays for the same seed and game index. A user's player that
        fails, or takes longer than ``decision_timeout`` seconds over a decision: ``PlayerError``, as
        ``Round.play``."""
        seated = seat_players(players, self.players)
        timeout = check_timeout(decision_timeout)
        while not self.is_over:
            self.round._step(seated[self.current_player - 1], timeout)
            self._book()
        return self.scores()

    def __repr__(self) -> str:
        return f"Game(players={self.players}, round={self._k + 1} of {self.n_rounds}, totals={list(self._totals)})"

