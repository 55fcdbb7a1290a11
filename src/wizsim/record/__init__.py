"""Game records (``GameRecord``: a whole game as a player knows it, JSON in and out, checked), the
export of simulated games (``from_games``) and the review of a player's decisions (``review``).

The review imports the advisor; it is loaded on first use, so reading a record stays light.
"""

from __future__ import annotations

from wizsim.record.game import GameRecord, Play, RecordError, RoundFacts, RoundRecord

__all__ = ["GameRecord", "Play", "RecordError", "Review", "RoundFacts", "RoundRecord", "from_games", "review",
           "schema"]


def schema() -> dict:
    """The JSON Schema of the game record (``game.schema.json``, shipped with the package)."""
    import json
    from importlib.resources import files

    return json.loads((files("wizsim.record") / "game.schema.json").read_text(encoding="utf-8"))


def __getattr__(name):
    if name == "from_games":
        from wizsim.record.export import from_games

        return from_games
    if name in ("review", "Review"):
        import wizsim.record.rating as module

        return getattr(module, name)
    raise AttributeError(f"module 'wizsim.record' has no attribute {name!r}")
