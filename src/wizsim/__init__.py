"""wizsim: Wizard card game simulation, bid advice and strategy studies.

Public API (docs/api.md); everything else inside the package may change.
"""

from wizsim._version import __version__

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
    "PlayerError",
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
    "learn_table",
    "learned_policy",
    "legal_plays",
    "observe",
    "parse_cards",
    "player",
    "read_rounds",
    "read_tricks",
    "review",
    "run_tournament",
    "score",
    "simulate_games",
    "simulate_rounds",
    "trick_winner",
]


# Where each public name lives. Nothing is imported with the package: ``import wizsim`` stays light (the
# CLI installs its Ctrl-C handling before NumPy and Numba load), and a name's module loads on first use.
_HOMES = {
    "wizsim.advisor": ("Advice", "AdviceError", "PlayAdvice", "TrumpAdvice", "advise", "advise_play", "advise_trump"),
    "wizsim.cards": ("CardError", "format_cards", "parse_cards"),
    "wizsim.config": ("ConfigError", "PlayerError", "RulesConfig"),
    "wizsim.rules.api": ("legal_plays", "score", "trick_winner"),
    "wizsim.sim.driver": ("GameBatch", "RoundBatch", "simulate_games", "simulate_rounds"),
    "wizsim.dataset.read": ("read_rounds", "read_tricks"),  # pulls in pyarrow.dataset
    "wizsim.tournament": ("run_tournament",),
    "wizsim.jit": ("jit_player",),  # a user's jitted player
    "wizsim.table": ("Round", "Game", "Observation", "Player", "player"),  # the open table
    "wizsim.record": ("GameRecord", "review"),  # game records and their review
    "wizsim.advisor.table_fit": ("learn_table", "learned_policy"),  # the table's play, learned from the game
    "wizsim.advisor.history": ("observe",),  # a seat's Observation from what it saw at another table
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'wizsim' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
