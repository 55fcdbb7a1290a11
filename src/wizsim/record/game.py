"""The game record: a whole game of Wizard as a player knows it, read, checked and written as JSON.

The format (docs/game-record.md; ``game.schema.json`` beside this module; the page
``docs/game-record.md``): ``players`` (names in seating order, clockwise), ``first_dealer`` (index into
``players``), ``hook``, ``me`` (optional: whose decisions a review rates) and ``rounds``, each ``{"r",
"turn_up", "trump", "bids", "tricks", "hand", "played"}`` with the bids and tricks in the order of
``players``, ``hand`` the cards ``me`` was dealt and ``played`` the round's cards in order of play.

Seats: round ``k`` (0-based) is dealt by player ``(first_dealer + k) % n``; the player after the dealer
is seat 1 (bids first, leads trick one) and the dealer is seat ``n``, so seat ``s`` (1-based) is player
``(dealer + s) % n``, as in ``simulate_games`` and ``wizsim.Game``.

A record may be partial: rounds 1..k of a game in progress (the last round listed may have no
``tricks`` yet, and ``played`` may stop in the middle of the round). Every check raises
``RecordError`` (a ``ValueError``) with one line that starts with the entry it names, such as
``rounds[3].bids: ...``: a bid above the hand size, tricks not adding up to ``r``, a card in two hands
or played twice, a missing or misplaced round, an unknown field, ``me`` out of range, the hook broken by
the dealer's bid, a turned-up card that does not give the trump, a card that does not follow suit, and
played cards that give other trick counts than the record's.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from wizsim.cards import (
    FIRST_JESTER,
    FIRST_WIZARD,
    N_SUITED,
    CardError,
    card_ids,
    card_suit,
    format_card,
    format_cards,
    format_trump,
    parse_card,
    parse_trump,
    shorten,
)
from wizsim.config import MAX_PLAYERS, MIN_PLAYERS, n_game_rounds
from wizsim.errors import RecordError  # noqa: F401 - re-exported

GAME_FIELDS = ("players", "first_dealer", "hook", "me", "identities", "rounds")
IDENTITY_FIELDS = ("player", "kind", "sha256", "wizsim", "net_weights", "note")  # wizsim.identity's keys
ROUND_FIELDS = ("r", "turn_up", "trump", "bids", "tricks", "hand", "played", "hints")
HINT_KINDS = ("trump", "bid", "card")
TRICK_SEPARATOR = "/"
MAX_NAME = 40
# The most a game record read from a file may hold: a whole game's record is a few KB (3 players, 20 rounds,
# every card played: about 6 KB indented), so 1 MiB is room for any record and refuses /dev/zero or a
# wrong file before it fills the memory.
MAX_RECORD_BYTES = 1024 * 1024
MAX_NUMBER_DIGITS = 100  # a number in a record is a count or an index: more digits than this is not one
# characters a name may not hold: they change how the names around them read on the sheet and in exports
# (bidi embeddings, overrides and isolates, the direction marks), or are not text at all (controls, lone
# surrogates, line and paragraph separators)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass
class RoundRecord:
    """One round as recorded: bids and tricks in the order of the game's ``players``."""

    r: int
    trump: str
    bids: list[int]
    tricks: list[int] | None = None
    turn_up: str | None = None
    hand: str | None = None
    played: str | None = None
    hints: list[dict] | None = None  # the hints me took (the practice table): {"kind", "best", "at" for a card}

    def to_dict(self) -> dict:
        out = {"r": self.r, "turn_up": self.turn_up, "trump": self.trump, "bids": list(self.bids),
               "tricks": None if self.tricks is None else list(self.tricks)}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.played is not None:
            out["played"] = self.played
        if self.hints is not None:
            out["hints"] = [dict(h) for h in self.hints]
        return out


@dataclass(frozen=True)
class Play:
    """One card of a round in order of play (``trick`` and ``seat`` 0-based; ``player``: index into players)."""

    position: int
    trick: int
    seat: int
    player: int
    card: int  # id; a Wizard or Jester as the first id of its kind (they are interchangeable)


@dataclass(frozen=True)
class RoundFacts:
    """What a checked round says, in the forms the review and the score sheet need."""

    index: int
    r: int
    dealer: int  # player index
    seat_player: tuple[int, ...]  # seat (0-based) -> player index; the last seat is the dealer
    trump: int  # -1..3
    turn_up: int | None  # the turned-up card's id when recorded
    bids_by_seat: tuple[int, ...]
    hand: tuple[int, ...] | None  # me's dealt cards (ids), given or read off a complete ``played``
    plays: tuple[Play, ...]
    complete: bool  # every card of the round is in ``played``

    @property
    def players(self) -> int:
        return len(self.seat_player)

    def seat_of(self, player: int) -> int:
        """1-based seat of ``player`` in this round."""
        return self.seat_player.index(player) + 1


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _LongNumber(str):
    """A number of more than ``MAX_NUMBER_DIGITS`` digits in the JSON text, kept as its digits rather than
    converted (Python refuses to convert 4,300 or more, in an error that names no entry): the check of the
    entry it stands in then refuses it, naming the entry."""

    def __repr__(self) -> str:
        return f"a number of {len(self.lstrip('-')):,} digits"


def _parse_int(text: str):
    return _LongNumber(text) if len(text) > MAX_NUMBER_DIGITS else int(text)


def loads(text):
    """JSON text as Python objects, a number of more than ``MAX_NUMBER_DIGITS`` digits kept as a
    ``LongNumber`` (its entry's check refuses it by name) and nesting too deep for Python a ``RecordError``."""
    try:
        return json.loads(text, parse_int=_parse_int)
    except RecursionError:
        raise RecordError("record: nested too deeply to be a game record (an object of rounds, each with lists of "
                          "bids and tricks)") from None


LongNumber = _LongNumber


def _show(value) -> str:
    if isinstance(value, _LongNumber):
        return repr(value)
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except RecursionError:
            text = f"a {type(value).__name__} nested too deeply to show"
    return shorten(text, 50)


def _name_fault(name: str) -> str | None:
    """What makes ``name`` unfit to print: a control character, a bidi override or mark, or a lone surrogate."""
    import unicodedata

    for i, ch in enumerate(name):
        kind = unicodedata.category(ch)
        if ch in BIDI_CONTROLS or kind in ("Cc", "Cs", "Zl", "Zp"):
            what = unicodedata.name(ch, "a control character" if kind == "Cc" else "a lone surrogate" if kind == "Cs"
                                    else "a separator")
            return f"character {i + 1} is U+{ord(ch):04X} ({what})"
    return None


def _fail(where: str, message: str):
    raise RecordError(f"{where}: {message}")


@dataclass
class GameRecord:
    """A game of Wizard as a player knows it (see the module docstring). Building one checks it:
    ``RecordError`` names the first bad entry. ``from_json``/``load`` read the JSON format,
    ``to_json``/``save`` write it; ``scores()`` and ``totals()`` are the rules' scores."""

    players: list[str]
    first_dealer: int = 0
    hook: bool = False
    me: int | None = None
    rounds: list[RoundRecord] = field(default_factory=list)
    identities: list | None = None  # per player, what a program player is (wizsim.identity), or None

    def __post_init__(self):
        self.validate()

    # ---- reading and writing -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, obj) -> GameRecord:
        """A record from the parsed JSON object; every field checked, unknown ones refused."""
        if not isinstance(obj, dict):
            raise RecordError(f"record: a game record is a JSON object with {', '.join(GAME_FIELDS)}, got "
                              f"{_show(obj)}")
        _known(obj, GAME_FIELDS, "record")
        for name in ("players", "first_dealer", "rounds"):
            if name not in obj:
                _fail(name, "required")
        rounds = obj["rounds"]
        if not isinstance(rounds, list):
            _fail("rounds", f"a list of rounds, got {_show(rounds)}")
        parsed = []
        for i, rd in enumerate(rounds):
            where = f"rounds[{i}]"
            if not isinstance(rd, dict):
                _fail(where, f"a round is a JSON object with {', '.join(ROUND_FIELDS)}, got {_show(rd)}")
            _known(rd, ROUND_FIELDS, where)
            for name in ("r", "trump", "bids"):
                if name not in rd:
                    _fail(f"{where}.{name}", "required")
            parsed.append(RoundRecord(**rd))
        return cls(players=obj["players"], first_dealer=obj["first_dealer"], hook=obj.get("hook", False),
                   me=obj.get("me"), rounds=parsed, identities=obj.get("identities"))

    @classmethod
    def from_json(cls, text) -> GameRecord:
        """A record from JSON text (or bytes, or an already parsed object)."""
        if isinstance(text, (str, bytes, bytearray)):
            try:
                obj = loads(text)
            except json.JSONDecodeError as err:
                raise RecordError(f"record: not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") \
                    from None
            except RecordError:
                raise
            except (UnicodeDecodeError, ValueError) as err:  # bytes not UTF-8 (ASCII-only: the JSON module's own)
                raise RecordError(f"record: not valid JSON text: {shorten(str(err), 120)}") from None
        else:
            obj = text
        try:
            return cls.from_dict(obj)
        except RecursionError:  # an already parsed object nested thousands deep
            raise RecordError("record: nested too deeply to be a game record") from None

    @classmethod
    def load(cls, path) -> GameRecord:
        """A record from a JSON file of at most ``MAX_RECORD_BYTES`` (1 MiB; a whole game's record is a few
        KB): a larger file, or an endless one like /dev/zero, is refused before it is read in full."""
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_RECORD_BYTES + 1)
        except OSError as err:
            raise RecordError(f"record: cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"record: {path} holds more than {MAX_RECORD_BYTES:,} bytes (1 MiB), the most a game "
                              f"record may hold (a whole game's record is a few KB)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError(f"record: cannot read {path}: not UTF-8 text ({err.reason} at byte {err.start})") \
                from None
        return cls.from_json(text)


    def to_dict(self) -> dict:
        out = {"players": list(self.players), "first_dealer": self.first_dealer, "hook": self.hook}
        if self.me is not None:
            out["me"] = self.me
        if self.identities is not None:
            out["identities"] = [None if i is None else dict(i) for i in self.identities]
        out["rounds"] = [rd.to_dict() for rd in self.rounds]
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """The record as JSON text; with ``indent`` (the default) one line per field and per round, which
        reads like a score sheet; ``indent=None``: one line."""
        obj = self.to_dict()
        if indent is None:
            return json.dumps(obj)
        pad = " " * indent
        lines = [f"{pad}{json.dumps(k)}: {json.dumps(v)}" for k, v in obj.items() if k != "rounds"]
        rounds = ",\n".join(f"{pad}{pad}{json.dumps(rd)}" for rd in obj["rounds"])
        lines.append(f"{pad}\"rounds\": [\n{rounds}\n{pad}]" if rounds else f"{pad}\"rounds\": []")
        return "{\n" + ",\n".join(lines) + "\n}"

    def save(self, path) -> None:
        """Write the record as JSON: to a temporary name in the same folder, then renamed over ``path``."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.to_json() + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # ---- the game ------------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def n_rounds(self) -> int:
        """Rounds in a whole game with this many players."""
        return n_game_rounds(self.n_players)

    def dealer(self, k: int) -> int:
        """The player (index) who deals round index ``k`` (0-based)."""
        return (self.first_dealer + k) % self.n_players

    def seat_players(self, k: int) -> tuple[int, ...]:
        """Player index at each seat (0-based) of round index ``k``: the dealer's next player first."""
        n = self.n_players
        return tuple((self.dealer(k) + 1 + s) % n for s in range(n))

    def facts(self, k: int) -> RoundFacts:
        """The checked contents of round index ``k``."""
        return self._facts[k]

    def scores(self) -> list[list[int] | None]:
        """Per round, each player's score by the rules (docs/rules.md 6); None for a round without tricks yet."""
        from wizsim.rules.api import score

        return [None if rd.tricks is None else [int(score(b, t)) for b, t in zip(rd.bids, rd.tricks, strict=True)]
                for rd in self.rounds]

    def totals(self) -> list[list[int]]:
        """Each player's running total after each round with tricks."""
        out, running = [], [0] * self.n_players
        for row in self.scores():
            if row is None:
                continue
            running = [a + b for a, b in zip(running, row, strict=True)]
            out.append(list(running))
        return out

    # ---- checks --------------------------------------------------------------------------------
    def _check_identities(self, n: int) -> None:
        """``identities``: None, or one entry per player, each null or an object of short texts."""
        ids = self.identities
        if ids is None:
            return
        if not isinstance(ids, list) or len(ids) != n:
            _fail("identities", f"a list of {n} entries (one per player, null for a person) or null, got {_show(ids)}")
        for i, ident in enumerate(ids):
            if ident is None:
                continue
            if not isinstance(ident, dict):
                _fail(f"identities[{i}]", f"an object ({', '.join(IDENTITY_FIELDS)}) or null, got {_show(ident)}")
            _known(ident, IDENTITY_FIELDS, f"identities[{i}]")
            for key, value in ident.items():
                if value is not None and (not isinstance(value, str) or len(value) > 200):
                    _fail(f"identities[{i}].{key}", f"text of at most 200 characters or null, got {_show(value)}")

    def validate(self) -> None:
        """Check the whole record and put every field in its canonical form; ``RecordError`` otherwise."""
        players = self.players
        if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            _fail("players", f"a list of {MIN_PLAYERS}..{MAX_PLAYERS} names in seating order, got {_show(players)}")
        seen: dict[str, int] = {}
        for i, name in enumerate(players):
            if not isinstance(name, str) or not name.strip():
                _fail(f"players[{i}]", f"a name (non-empty text), got {_show(name)}")
            if len(name) > MAX_NAME:
                _fail(f"players[{i}]", f"a name of at most {MAX_NAME} characters, got {len(name)}")
            fault = _name_fault(name)
            if fault:
                _fail(f"players[{i}]", f"a name may not hold control characters, bidi overrides or marks, or lone "
                                       f"surrogates: {fault}")
            if name.strip() in seen:
                _fail(f"players[{i}]", f"{name.strip()!r} is also players[{seen[name.strip()]}]: give each player "
                                       f"a different name")
            seen[name.strip()] = i
        self.players = [name.strip() for name in players]
        n = len(players)
        if not _is_int(self.first_dealer) or not 0 <= self.first_dealer < n:
            _fail("first_dealer", f"the index of the first dealer in players, 0..{n - 1}, got {_show(self.first_dealer)}")
        if not isinstance(self.hook, bool):
            _fail("hook", f"true or false, got {_show(self.hook)}")
        if self.me is not None and (not _is_int(self.me) or not 0 <= self.me < n):
            _fail("me", f"the index of the reviewed player in players, 0..{n - 1}, or null; got {_show(self.me)}")
        self._check_identities(n)
        if not isinstance(self.rounds, list):
            _fail("rounds", f"a list of rounds, got {_show(self.rounds)}")
        if len(self.rounds) > self.n_rounds:
            _fail("rounds", f"a game of {n} players has {self.n_rounds} rounds, the record has {len(self.rounds)}")
        facts = []
        for k, rd in enumerate(self.rounds):
            if isinstance(rd, dict):
                _known(rd, ROUND_FIELDS, f"rounds[{k}]")
                try:
                    rd = self.rounds[k] = RoundRecord(**rd)
                except TypeError:
                    _fail(f"rounds[{k}]", f"r, trump and bids are required, got {', '.join(rd)}")
            if not isinstance(rd, RoundRecord):
                _fail(f"rounds[{k}]", f"a round (a JSON object), got {_show(rd)}")
            facts.append(self._check_round(k, rd, last=k == len(self.rounds) - 1))
        self._facts = facts

    def _check_round(self, k: int, rd: RoundRecord, last: bool) -> RoundFacts:
        from wizsim.rules.kernels import forbidden_bid, is_last_round

        at = f"rounds[{k}]"
        n, names = self.n_players, self.players
        if not _is_int(rd.r):
            _fail(f"{at}.r", f"the hand size, a whole number, got {_show(rd.r)}")
        if rd.r != k + 1:
            _fail(f"{at}.r", f"round {k + 1} expected here (rounds are 1, 2, 3, ... in order, none missing), got "
                             f"round {rd.r}")
        r = rd.r
        seat_player = self.seat_players(k)
        dealer = seat_player[-1]
        last_round = bool(is_last_round(n, r))
        # the trump and the turned-up card
        try:
            trump = parse_trump(rd.trump, None) if isinstance(rd.trump, str) else _fail(
                f"{at}.trump", f"S, H, D, C or none, got {_show(rd.trump)}")
        except CardError as err:
            _fail(f"{at}.trump", str(err))
        hand = None
        if rd.hand is not None:
            if self.me is None:
                _fail(f"{at}.hand", "a hand is the cards of me: give me (the index of that player in players)")
            if not isinstance(rd.hand, str):
                _fail(f"{at}.hand", f"card text like 'W,AS,3H', got {_show(rd.hand)}")
            try:
                hand = tuple(int(c) for c in card_ids(rd.hand, None))
            except CardError as err:
                _fail(f"{at}.hand", str(err))
            if len(hand) != r:
                _fail(f"{at}.hand", f"{len(hand)} cards, but round {r} deals {r} to each player")
        turn_up = None
        if rd.turn_up is not None:
            if last_round:
                _fail(f"{at}.turn_up", f"nothing is turned up in the last round ({r} cards each deal the whole deck): "
                                       f"give null, got {_show(rd.turn_up)}")
            if not isinstance(rd.turn_up, str):
                _fail(f"{at}.turn_up", f"one card like '7D', W or J, or null, got {_show(rd.turn_up)}")
            try:
                got = card_ids(rd.turn_up, None, taken=hand or ())
            except CardError as err:
                text = str(err)
                if hand and "duplicate" in text:
                    text = f"{rd.turn_up.strip().upper()} is also in the hand: a card is in the deck once"
                elif "more than 4" in text:
                    text += " (with the hand)"
                _fail(f"{at}.turn_up", text)
            if len(got) != 1:
                _fail(f"{at}.turn_up", f"one card, got {_show(rd.turn_up)}")
            turn_up = int(got[0])
        if last_round and trump != -1:
            _fail(f"{at}.trump", f"the last round has no trump (nothing is turned up): give none, got {rd.trump}")
        if turn_up is not None:
            if turn_up >= FIRST_JESTER and trump != -1:
                _fail(f"{at}.trump", f"a Jester turned up means no trump: give none, got {rd.trump}")
            if FIRST_WIZARD <= turn_up < FIRST_JESTER and trump == -1:
                _fail(f"{at}.trump", f"on a turned-up Wizard the dealer ({names[dealer]}) names a suit: give S, H, D "
                                     f"or C, got none")
            if turn_up < N_SUITED and trump != card_suit(turn_up):
                _fail(f"{at}.trump", f"the turned-up {format_card(turn_up)} makes {format_trump(card_suit(turn_up))} "
                                     f"trump, got {rd.trump}")
        rd.trump = format_trump(trump)
        rd.turn_up = None if turn_up is None else format_card(turn_up)
        if hand is not None:
            rd.hand = format_cards(hand)
        # bids and tricks, in the order of players
        bids = _counts(rd.bids, f"{at}.bids", n, r, "bid", names)
        by_seat = tuple(bids[p] for p in seat_player)
        forbidden = int(forbidden_bid(self.hook, n - 1, n, r, sum(by_seat[:-1])))
        if by_seat[-1] == forbidden:
            _fail(f"{at}.bids", f"with the hook the dealer ({names[dealer]}) may not bid {forbidden}: the bids "
                                f"would add up to the hand size {r}")
        rd.bids = list(bids)
        tricks = None
        if rd.tricks is None:
            if not last:
                _fail(f"{at}.tricks", "required (only the last round listed may be still in play)")
        else:
            tricks = _counts(rd.tricks, f"{at}.tricks", n, r, "trick count", names)
            if sum(tricks) != r:
                _fail(f"{at}.tricks", f"the tricks add up to {sum(tricks)}, but round {r} has {r} tricks")
            rd.tricks = list(tricks)
        plays: tuple[Play, ...] = ()
        if rd.played is not None:
            plays, text = self._check_played(at, rd.played, r, seat_player, trump, hand, turn_up, tricks)
            rd.played = text
        if rd.hints is not None:
            rd.hints = self._check_hints(at, rd.hints, r, n, trump, plays)
        complete = len(plays) == n * r
        if hand is None and self.me is not None and complete:
            hand = tuple(pl.card for pl in plays if pl.player == self.me)
            hand = tuple(int(c) for c in card_ids(format_cards(hand), None))  # distinct Wizard/Jester ids
        return RoundFacts(k, r, dealer, seat_player, trump, turn_up, by_seat, hand, plays, complete)

    def _check_hints(self, at, hints, r, n, trump, plays) -> list[dict]:
        """The hints ``me`` took in the round, in canonical form: each ``{"kind": "trump"|"bid"|"card",
        "best": the advice}`` and, for a card, ``"at"``: the card's place in ``played`` (0-based), one of
        ``me``'s."""
        where = f"{at}.hints"
        if self.me is None:
            _fail(where, "hints are the hints me took: give me (the index of that player in players)")
        if not isinstance(hints, list):
            _fail(where, f"a list of hints like {{\"kind\": \"bid\", \"best\": 1}}, got {_show(hints)}")
        out = []
        for i, h in enumerate(hints):
            w = f"{where}[{i}]"
            if not isinstance(h, dict) or h.get("kind") not in HINT_KINDS:
                _fail(w, f"a hint is {{\"kind\": trump, bid or card, \"best\": the advice}}, got {_show(h)}")
            _known(h, ("kind", "best", "at"), w)
            kind, best = h["kind"], h.get("best")
            if kind == "bid":
                if not _is_int(best) or not 0 <= best <= r:
                    _fail(f"{w}.best", f"the bid advised, 0..{r}, got {_show(best)}")
                out.append({"kind": kind, "best": best})
                continue
            if kind == "trump":
                try:
                    suit = parse_trump(best, None) if isinstance(best, str) else -1
                except CardError:
                    suit = -1
                if suit < 0:
                    _fail(f"{w}.best", f"the suit advised, S, H, D or C, got {_show(best)}")
                out.append({"kind": kind, "best": format_trump(suit)})
                continue
            pos = h.get("at")
            if not _is_int(pos) or not 0 <= pos < n * r:
                _fail(f"{w}.at", f"the card's place in played, 0..{n * r - 1}, got {_show(pos)}")
            if pos < len(plays) and plays[pos].player != self.me:
                _fail(f"{w}.at", f"card {pos + 1} of played is {self.players[plays[pos].player]}'s, not "
                                 f"{self.players[self.me]}'s")
            try:
                (card,) = card_ids(best, None) if isinstance(best, str) else (None,)
            except (CardError, ValueError):
                card = None
            if card is None:
                _fail(f"{w}.best", f"the card advised, like AS or W, got {_show(best)}")
            out.append({"kind": kind, "at": pos, "best": format_card(int(card))})
        return out

    def _check_played(self, at, played, r, seat_player, trump, hand, turn_up, tricks):
        from wizsim.rules.replay import order_of_play

        where = f"{at}.played"
        n, names, me = self.n_players, self.players, self.me
        if not isinstance(played, str):
            _fail(where, f"card text in order of play like '5H,AH,2S/9C', got {_show(played)}")
        cards: list[int] = []
        groups = played.split(TRICK_SEPARATOR) if played.strip() else []
        for g, group in enumerate(groups):
            if not group.strip() and g == len(groups) - 1 and g > 0:
                break  # a trailing '/' closes the last trick
            for token in group.split(","):
                pos = len(cards) + 1
                try:
                    cards.append(parse_card(token))
                except CardError as err:
                    _fail(where, f"card {pos} (trick {(pos - 1) // n + 1}): {err}")
            if g < len(groups) - 1 and len(cards) % n:
                _fail(where, f"the '/' after card {len(cards)} does not close a trick: a trick has {n} cards "
                             f"with {n} players")
        if len(cards) > n * r:
            _fail(where, f"{len(cards)} cards, but round {r} has only {n * r} ({n} players x {r})")
        # who played what: seat 1 leads, the winner of each trick leads the next
        held = list(hand) if hand is not None else None  # me's cards not yet played
        in_hand = {c for c in (hand or ()) if c < FIRST_WIZARD}
        kinds = {FIRST_WIZARD: 0, FIRST_JESTER: 0}
        for c in (*(hand or ()), *(() if turn_up is None else (turn_up,))):
            if c >= FIRST_WIZARD:
                kinds[FIRST_WIZARD if c < FIRST_JESTER else FIRST_JESTER] += 1
        first_seen: dict[int, int] = {}
        void_shown: dict[tuple[int, int], tuple[int, int]] = {}
        taken = [0] * n
        plays = []
        for pos, t, seat, card, led, void, winner in order_of_play(cards, n, trump):
            player = seat_player[seat]
            name = format_card(card)
            label = f"card {pos + 1} ({name}, trick {t + 1}, {names[player]})"
            if card < FIRST_WIZARD:
                if card in first_seen:
                    _fail(where, f"{name} is played twice (cards {first_seen[card] + 1} and {pos + 1}): each card is in "
                                 f"the deck once")
                first_seen[card] = pos
                if card == turn_up:
                    _fail(where, f"{label}: {name} is the turned-up card, which takes no part in play")
            suit = card_suit(card)
            if suit >= 0 and (player, suit) in void_shown:
                shown, st = void_shown[(player, suit)]
                _fail(where, f"{label}: {names[player]} showed no {format_trump(suit)} ({format_card(shown)} on a "
                             f"{format_trump(suit)} lead in trick {st + 1}) and then played {name}")
            if held is not None and player == me:
                kind = [c for c in held if (c == card if card < FIRST_WIZARD else
                                            (c >= FIRST_WIZARD and (c >= FIRST_JESTER) == (card >= FIRST_JESTER)))]
                if not kind:
                    _fail(where, f"{label}: {name} is not in {names[me]}'s hand ({at}.hand), or was played before")
                if led >= 0 and suit >= 0 and suit != led and any(card_suit(c) == led for c in held):
                    _fail(where, f"{label}: {name} does not follow the {format_trump(led)} lead, but "
                                 f"{names[me]} held {format_cards([c for c in held if card_suit(c) == led])}")
                held.remove(kind[0])
            else:
                if card in in_hand:
                    _fail(where, f"{label}: {name} is in {names[me]}'s hand ({at}.hand): a card is in one hand")
                if card >= FIRST_WIZARD:
                    k = FIRST_WIZARD if card < FIRST_JESTER else FIRST_JESTER
                    kinds[k] += 1
                    if kinds[k] > 4:
                        what = "Wizards" if k == FIRST_WIZARD else "Jesters"
                        _fail(where, f"{label}: more than 4 {what} between the hand, the turned-up card and the cards "
                                     f"played: the deck has only four")
            if void >= 0:
                void_shown.setdefault((player, void), (card, t))
            plays.append(Play(pos, t, seat, player, card))
            if winner >= 0:
                taken[seat_player[winner]] += 1
        if len(cards) == n * r and tricks is not None and list(tricks) != taken:
            diff = next(p for p in range(n) if tricks[p] != taken[p])
            _fail(f"{at}.tricks", f"the cards played give {names[diff]} {taken[diff]} trick(s), the record says "
                                  f"{tricks[diff]}")
        text = TRICK_SEPARATOR.join(format_cards(cards[i:i + n]) for i in range(0, len(cards), n))
        return tuple(plays), text


def _known(obj: dict, fields: tuple[str, ...], where: str) -> None:
    for key in obj:
        if key not in fields:
            _fail(where, f"unknown field {key!r} (the fields are {', '.join(fields)})")


def _counts(values, where: str, n: int, r: int, what: str, names: list[str]) -> list[int]:
    """One whole number 0..r per player."""
    if not isinstance(values, list) or len(values) != n:
        _fail(where, f"one {what} per player ({n}, in the order of players), got {_show(values)}")
    for i, v in enumerate(values):
        if not _is_int(v) or v < 0:
            _fail(where, f"{names[i]}'s {what} must be a whole number 0..{r}, got {_show(v)}")
        if v > r:
            _fail(where, f"{names[i]}'s {what} {v} is above the hand size {r}")
    return [int(v) for v in values]
