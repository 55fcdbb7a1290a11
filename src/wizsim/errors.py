"""Every error class wizsim raises, on the ground floor: any layer may raise any of them without importing a
layer above its own. Each is also importable from where it was first defined (``wizsim.cards.CardError``,
``wizsim.config.ConfigError``, ``wizsim.AdviceError`` ...), and each is a ``ValueError`` (a ``TypeError``
too for the ``...TypeError`` ones): bad input gets a one-line message that names the problem."""

from __future__ import annotations


class CardError(ValueError):
    """A card text or card id that does not follow the rules (docs/rules.md); the message names the bad part."""


class CardTypeError(CardError, TypeError):
    """Cards given as something that is not card text or whole-number ids (a float, a nested list...)."""


class ConfigError(ValueError):
    """A rule option outside its valid range; the message names the option and the range."""


class PlayerError(ConfigError):
    """A user's player failed: its module would not load, or a decision raised (``SystemExit`` included),
    returned no legal action or ran past the time limit. The one-line message names the player, the
    seat, the decision and the (seed, round index) that replays it; ``__cause__`` is the original."""


class AdviceError(ValueError):
    """A question the advisor cannot answer as asked; the message names the problem."""


class AdviceTypeError(AdviceError, TypeError):
    """An argument of the wrong kind (a float seat, a nested list of bids); the message names it."""


class RecordError(ValueError):
    """A game record that breaks the format or the rules; the message starts with the entry it names."""


class DatasetError(ValueError):
    """A dataset folder or file that wizsim cannot write to or read: the message says why."""
