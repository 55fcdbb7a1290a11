"""The open table: a public round and game state anyone can step, and players as objects
(docs/guide/players.md, "The open table")."""

from wizsim.table.game import Game
from wizsim.table.observation import Observation
from wizsim.table.players import Player, player
from wizsim.table.round import Round

__all__ = ["Game", "Observation", "Player", "Round", "player"]
