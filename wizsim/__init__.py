"""wizsim: Wizard card game simulation, bid advice and strategy studies.

Public API (see CONTRACT.md); everything else inside the package may change.
"""

from wizsim.cards import CardError, format_cards, parse_cards
from wizsim.config import ConfigError, RulesConfig
from wizsim.rules.api import legal_plays, score, trick_winner
from wizsim.sim.driver import GameBatch, RoundBatch, simulate_games, simulate_rounds
from wizsim.advisor import Advice, advise

__version__ = "0.1.0"

__all__ = [
    "Advice",
    "CardError",
    "ConfigError",
    "GameBatch",
    "RoundBatch",
    "RulesConfig",
    "__version__",
    "advise",
    "format_cards",
    "legal_plays",
    "parse_cards",
    "score",
    "simulate_games",
    "simulate_rounds",
    "trick_winner",
]
