"""wizsim: Wizard card game simulation, bid advice and strategy studies.

Public API (see CONTRACT.md); everything else inside the package may change.
"""

from wizsim.advisor import Advice, AdviceError, PlayAdvice, TrumpAdvice, advise, advise_play, advise_trump
from wizsim.cards import CardError, format_cards, parse_cards
from wizsim.config import ConfigError, RulesConfig
from wizsim.rules.api import legal_plays, score, trick_winner
from wizsim.sim.driver import GameBatch, RoundBatch, simulate_games, simulate_rounds

__version__ = "0.1.0"

__all__ = [
    "Advice",
    "AdviceError",
    "CardError",
    "ConfigError",
    "Game",
    "GameBatch",
    "GameRecord",
    "Observation",
    "Player",
    "PlayAdvice",
    "Round",
    "RoundBatch",
    "RulesConfig",
    "TrumpAdvice",
    "__version__",
    "advise",
    "advise_play",
    "advise_trump",
    "format_cards",
    "jit_player",
    "legal_plays",
    "parse_cards",
    "player",
    "read_rounds",
    "review",
    "run_tournament",
    "score",
    "simulate_games",
    "simulate_rounds",
    "trick_winner",
]


def __getattr__(name):
    # read_rounds pulls in pyarrow.dataset: load it on first use, not on every ``import wizsim``
    if name == "read_rounds":
        from wizsim.dataset.read import read_rounds

        return read_rounds
    if name == "run_tournament":
        from wizsim.tournament import run_tournament

        return run_tournament
    if name == "jit_player":  # a user's jitted player (wizsim.jit)
        from wizsim.jit import jit_player

        return jit_player
    if name in ("Round", "Game", "Observation", "Player", "player"):  # the open table (wizsim.table)
        import wizsim.table

        return getattr(wizsim.table, name)
    if name in ("GameRecord", "review"):  # game records and their review (wizsim.record)
        import wizsim.record

        return getattr(wizsim.record, name)
    raise AttributeError(f"module 'wizsim' has no attribute {name!r}")
