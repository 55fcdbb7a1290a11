"""RulesConfig: the rule options of a run, their defaults and valid ranges, validated once."""

from __future__ import annotations

from dataclasses import dataclass

MIN_PLAYERS = 3
MAX_PLAYERS = 6
RULES_VERSION = 3  # bump when simulated results for a given seed could change


class ConfigError(ValueError):
    """A rule option outside its valid range; the message names the option and the range."""


def n_game_rounds(players: int) -> int:
    """Rounds in a whole game: 60 / players (20, 15, 12 or 10)."""
    return 60 // players


@dataclass(frozen=True)
class RulesConfig:
    players: int = 4
    hook: bool = False

    def __post_init__(self):
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players}")

    @property
    def n_rounds(self) -> int:
        return n_game_rounds(self.players)

    def check_round(self, r: int) -> int:
        if not isinstance(r, int) or not 1 <= r <= self.n_rounds:
            raise ConfigError(f"round size must be 1..{self.n_rounds} for {self.players} players, got {r}")
        return r
