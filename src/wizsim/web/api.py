"""The JSON API's contract: a request is the CLI options by name, the answer the CLI's ``--json`` object.

``answer(fields)`` makes the same library call as ``wizsim advise`` (bid advice, or play advice when
``bids`` holds every player's bid, the CLI's rule) and returns ``Advice.to_dict()`` plus one extra
key, ``p_tricks`` (bid advice: row b is the distribution of tricks when bidding b, the page's bar
charts). Every check of the question is the library's, so a bad request gets the library's one-line
message; this module adds only the server's own bounds, which keep one request from holding the
machine: at most ``MAX_SAMPLES`` deals and ``MAX_CARD_PLAYS`` simulated card plays per request,
counted in heuristic card plays whatever the policies (``card_cost``: a search card is tens of
thousands), about 6 s on two cores; the default precision stops at the advisor's own, smaller cap.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from wizsim.config import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, check_count

MAX_SAMPLES = 200_000
MAX_CARD_PLAYS = 48_000_000
MAX_BODY_BYTES = 16 * 1024
MAX_TEXT = 200  # characters of a card list: 20 cards are at most 79

# What each field holds, for the one-line message of a value of the wrong JSON type.
EXPECTED = {
    "hand": "text like \"W,AS,3H\"",
    "trump": "text: S, H, D, C or none",
    "seat": "a whole number",
    "players": "a whole number",
    "bids": "text like \"1,0\" or a list of whole numbers",
    "played": "text like \"5H,AH,2S,9C/KD\"",
    "hook": "true or false",
    "trump_card": "text like \"7D\"",
    "samples": "a whole number",
    "seed": "a whole number",
    "policy": "a policy name",
    "play": "a policy name",
    "bid_trust": "a number 0..1",
    "trump_trust": "a number 0..1",
    "play_trust": "a number 0..1",
    "play_noise": "a number 0..1",
    "doubt": "a number 0..1",
    "seat_doubt": "a number 0..1",
    "explain": "true or false",
}


class RequestError(ValueError):
    """A request the server refuses; ``status`` is its HTTP status (a 4xx)."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


class AdviseRequest(BaseModel):
    """``POST /api/advise``: the options of ``wizsim advise``, by the same names (``--trump-card`` is
    ``trump_card``). Fields left out take the CLI's defaults. With ``bids`` holding every player's
    bid (exactly ``players`` of them) the answer is play advice, else bid advice."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={
        "examples": [{"hand": "W,AS,3H", "trump": "S", "seat": 2, "seed": 7}]})

    hand: str = Field(max_length=MAX_TEXT, description="Your cards (bid advice) or the cards you still hold "
                      "(play advice), e.g. \"W,AS,3H\"; W Wizard, J Jester, JS the Jack of spades.")
    trump: str | None = Field(None, max_length=10, description="S, H, D, C or none (implied by trump_card).")
    seat: int = Field(description="Your seat: 1 bids first and leads trick one, the last seat deals.")
    players: int | None = Field(None, description="Players at the table, 3..6 (default 4).")
    bids: str | list[int] | None = Field(None, max_length=MAX_TEXT, description="Seat-1 earlier bids "
                                         "(bid advice) or every player's bid, seat 1 first (play advice).")
    played: str | None = Field(None, max_length=4 * MAX_TEXT, description="Play advice: the cards played "
                               "so far this round, in order of play; '/' between tricks is optional.")
    hook: bool | None = Field(None, description="Hook variant: the bids may not add up to the round size.")
    trump_card: str | None = Field(None, max_length=10, description="The turned-up card, when known.")
    samples: int | None = Field(None, description=f"Deals to simulate, 1..{MAX_SAMPLES:,} (default: until the "
                                "best answer is clear).")
    seed: int | None = Field(None, description="Seed, for a reproducible answer (0..2**63-1).")
    policy: str | None = Field(None, max_length=100, description="The opponents' policy (default heuristic).")
    play: str | None = Field(None, max_length=100, description="The policy playing your later cards.")
    bid_trust: float | None = Field(None, description="How far heard bids are trusted, 0..1 (default: the CLI's).")
    trump_trust: float | None = Field(None, description="How far the suit an opponent dealer named on a turned-up "
                                      "Wizard is trusted, 0..1 (default: the CLI's).")
    play_trust: float | None = Field(None, description="Play advice: how far the opponents' chosen cards are "
                                     "trusted, 0..1 (default: the CLI's).")
    play_noise: float | None = Field(None, description="How often an opponent modelled by the heuristic or net plays a "
                                     "random legal card in the simulations, 0..1 (default: the CLI's).")
    seat_doubt: float | None = Field(None, description="The prior chance that one seat heard bidding plays blind "
                                     "on its own, 0..1 (default: the CLI's).")
    doubt: float | None = Field(None, description="The prior chance that the table plays blind (random bids and "
                                "cards) rather than as modelled, 0..1 (default: the CLI's).")
    game: dict | None = Field(None, description="The game so far as a game record (docs/game-record.md); the "
                              "opponents' model learns each player's play from its finished rounds (``wizsim "
                              "advise --game``), for trump, bid and play advice.")
    explain: bool | None = Field(None, description="Say why (``wizsim advise --explain``): the answer carries "
                                 "\"reasons\": each card's chance of taking a trick (bid, trump) or a line of play "
                                 "that sets the advised card against the runner-up (card).")


def validation_message(errors: list[dict], body: Any = None) -> tuple[int, str]:
    """(status, one line) for FastAPI's request validation errors (``body``: the parsed request, when
    it was JSON): 400 when the body is not a JSON object, 422 for a field that is missing, unknown,
    too long or of the wrong JSON type."""
    err = errors[0]
    kind, loc = err.get("type", ""), [str(x) for x in err.get("loc", ()) if x != "body"]
    if kind == "json_invalid":
        reason = err.get("ctx", {}).get("error", "not JSON")
        where = f" at character {loc[0]}" if loc else ""
        return 400, f"the request body is not valid JSON: {reason.lower()}{where}"
    if not loc and isinstance(err.get("input"), bytes):  # FastAPI parses JSON only when it is declared
        return 400, "the request body must be JSON, sent with the header Content-Type: application/json"
    if not loc:
        if kind == "missing":
            return 400, "the request needs a JSON object body, like {\"hand\": \"W,AS,3H\", \"trump\": \"S\", \"seat\": 2}"
        return 400, f"the request body must be a JSON object, got {_show(err.get('input'))}"
    field = loc[0]
    if kind == "missing":
        return 422, f"{field} is required"
    if kind == "extra_forbidden":
        return 422, f"unknown field {field!r}: the fields are {', '.join(AdviseRequest.model_fields)}"
    if kind == "too_long" or kind.endswith("_too_long"):  # "too_long": a union field (bids: text or a list)
        ctx, given = err.get("ctx", {}), err.get("input")
        unit = "characters" if isinstance(given, str) else "items"
        if "max_length" in ctx and "actual_length" in ctx:
            return 422, f"{field} is too long: at most {ctx['max_length']} {unit}, got {ctx['actual_length']}"
        return 422, f"{field} is too long: {err.get('msg', '').lower()}"
    if field in EXPECTED:
        value = body[field] if isinstance(body, dict) and field in body else err.get("input")
        return 422, f"{field} must be {EXPECTED[field]}, got {_show(value)}"
    return 422, f"{'.'.join(loc)}: {err.get('msg', 'invalid')}"


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _round_size(fields: dict) -> int | None:
    """Cards per player this round as far as the text tells (None when the library will refuse it)."""
    from wizsim.cards import CardError, parse_cards

    try:
        return len(parse_cards(fields["hand"]))
    except (CardError, KeyError, TypeError):
        return None


def card_cost(fields: dict, r: int | None) -> float:
    """What one simulated card play of this request costs, in heuristic card plays: the mean over the
    seats, the others' policies (``policy``: one name for all or a comma list) and the player's own
    (``play``); a search card costs tens of thousands. 1 where a name does not read (the library then
    names it)."""
    from wizsim.policies import policy_cost

    policy, play = fields.get("policy") or "heuristic", fields.get("play") or "heuristic"
    players = fields.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        players = DEFAULT_PLAYERS  # the library names a bad count
    try:
        others = policy.split(",") if isinstance(policy, str) else list(policy)
        if len(others) == 1:  # one name for every other seat
            others = others * (players - 1)
        names = [*others, play]
        return max(1.0, sum(policy_cost(n.strip(), r) for n in names) / len(names))
    except (ValueError, TypeError, AttributeError):
        return 1.0


def check_bounds(fields: dict) -> None:
    """The server's own limits on the work of one request (the question itself is the library's)."""
    samples = fields.get("samples")
    if samples is None or isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        return  # the library names a bad value
    check_count(samples, "samples on this server", 1, MAX_SAMPLES, error=RequestError)
    r = _round_size(fields)
    players = fields.get("players") or DEFAULT_PLAYERS
    if r and isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS:  # else the library names players
        cost = card_cost(fields, r)
        limit = max(1, int(MAX_CARD_PLAYS // ((r + 1) * r * players * cost)))
        dear = f", {cost:,.0f} each for these policies" if cost > 1 else ""
        check_count(samples, f"samples for a {r}-card hand at {players} players on this server (at most "
                    f"{MAX_CARD_PLAYS:,} simulated heuristic card plays a request{dear})", 1, limit,
                    error=RequestError)


def is_play_question(fields: dict) -> bool:
    """The CLI's rule: ``bids`` holding every player's bid (exactly ``players``) asks for play advice."""
    from wizsim.advisor.question import parse_bids

    bids = parse_bids(fields.get("bids"))
    players = fields.get("players") or DEFAULT_PLAYERS
    return bids is not None and len(bids) == players


def learned_from_game(kwargs: dict, play: bool) -> dict:
    """``game``: the opponents' model learned from the record's finished rounds (``advise --game``), as the
    request's ``policy`` (a ``policy`` given is the model each player's cards are read against)."""
    from wizsim.advisor.played import make_play_question
    from wizsim.advisor.table_fit import learnable_model, learned_policy
    from wizsim.cards import parse_cards
    from wizsim.record import GameRecord, RecordError

    kwargs = dict(kwargs)
    record = kwargs.pop("game")
    if "play_noise" in kwargs:
        raise RequestError("play_noise: the game gives each player's play noise; leave out play_noise")
    model = "heuristic"
    if "policy" in kwargs:
        try:
            model = learnable_model(kwargs["policy"]) if isinstance(kwargs["policy"], str) else None
        except ValueError as err:
            raise RequestError(f"policy: {err}") from None
        if model is None:
            raise RequestError("policy: with game, one policy name (the model the game's cards are read against)")
    try:
        record = GameRecord.from_dict(record)
    except RecordError as err:
        raise RequestError(f"game.{err}") from None
    players = kwargs.get("players") or DEFAULT_PLAYERS
    r = len(parse_cards(kwargs["hand"]))
    if play:  # the question checked first: its own error, if any
        r = make_play_question(kwargs["hand"], kwargs.get("trump"), kwargs["seat"], players, bids=kwargs.get("bids"),
                               played=kwargs.get("played", ()), hook=kwargs.get("hook", False),
                               trump_card=kwargs.get("trump_card")).r
    names = learned_policy(record, kwargs["seat"], players, r=r, model=model)
    if names is not None:
        kwargs["policy"] = ",".join(names)
    return kwargs


def answer(fields: dict) -> dict:
    """The answer to one request (``fields``: the request's fields that were given). Raises
    ``RequestError`` for the server's bounds and ``ValueError`` (the library's) for a bad question."""
    import inspect

    from wizsim.advisor import advise, advise_play, advise_trump

    check_bounds(fields)
    kwargs = {k: v for k, v in fields.items() if v is not None}
    if "game" in kwargs:
        kwargs = learned_from_game(kwargs, is_play_question(fields))
    hand, trump, seat = kwargs.pop("hand"), kwargs.pop("trump", None), kwargs.pop("seat")
    from wizsim.advisor.trump import is_trump_question

    if is_trump_question(trump, kwargs.get("trump_card"), seat, fields.get("players"), kwargs.get("bids")):
        kwargs.pop("trump_card")
        for name in ("played", "play_trust"):
            if name in kwargs:
                raise RequestError(f"{name}: the dealer names the trump before any card is played")
        if "trump_trust" in kwargs:
            raise RequestError("trump_trust: it weighs the suit an opponent dealer named; this is the dealer's own "
                               "question")
        if "seat_doubt" in kwargs:
            raise RequestError("seat_doubt: it is for the seats heard bidding; the dealer names the trump "
                               "before any bid")
        return advise_trump(hand, seat, **kwargs).to_dict()
    if is_play_question(fields):
        advice = advise_play(hand, trump, seat, **kwargs)
        return advice.to_dict()
    accepted = inspect.signature(advise).parameters
    for name in kwargs:
        if name not in accepted:
            what = ("the cards played are for play advice, once every player has bid (bids with one entry per "
                    "player)") if name in ("played", "play_trust") else "bid advice in this wizsim has no such option"
            raise RequestError(f"{name}: {what}")
    advice = advise(hand, trump, seat, **kwargs)
    return {**advice.to_dict(), "p_tricks": advice.p_tricks.tolist()}


# POST /api/review: the record's fields plus these options of ``wizsim review``.
REVIEW_OPTIONS = ("samples", "seed", "policy", "play", "round", "learn")  # round: the CLI's --round, one or a list
MAX_REVIEW_SAMPLES = 4_000  # a whole game at 4x the default: about a minute of one worker
REVIEW_EXAMPLE = {
    "players": ["Ann", "Bob", "Cleo"], "first_dealer": 0, "hook": False, "me": 1,
    "rounds": [{"r": 1, "turn_up": "7D", "trump": "D", "bids": [0, 1, 0], "tricks": [0, 1, 0], "hand": "AD",
                "played": "AD,2S,J"}],
    "samples": 500, "seed": 0,
}


def review_answer(body: dict, progress=None) -> dict:
    """``POST /api/review``: ``body`` is a game record (docs/game-record.md) with, optionally, the options
    ``samples``, ``seed``, ``policy``, ``play``, ``round`` (a round number or a list) and ``learn`` (true or
    false) of ``wizsim review``; the answer is the CLI's ``--json`` object. A bad record raises the library's ``RecordError`` (a ``ValueError``).
    ``progress()`` is called after each decision rated (the server gives way to waiting questions there)."""
    from wizsim.record import GameRecord, review

    options = {k: body[k] for k in REVIEW_OPTIONS if k in body and body[k] is not None}
    record = GameRecord.from_dict({k: v for k, v in body.items() if k not in REVIEW_OPTIONS})
    samples = options.get("samples")
    if isinstance(samples, int) and not isinstance(samples, bool) and samples >= 1:
        cost = card_cost(options, None)  # a long round's: the game's dearest
        dear = f" with these policies ({cost:,.0f} heuristic card plays a card)" if cost > 1 else ""
        check_count(samples, f"samples on this server{dear}", 1, max(1, int(MAX_REVIEW_SAMPLES // cost)),
                    error=RequestError)
    for name, kind in (("samples", int), ("seed", int), ("policy", str), ("play", str)):
        value = options.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, kind)):
            raise RequestError(f"{name} must be {EXPECTED[name]}, got {_show(value)}")
    if "learn" in options and not isinstance(options["learn"], bool):
        raise RequestError(f"learn must be true or false, got {_show(options['learn'])}")
    if "round" in options:
        options["rounds"] = options.pop("round")
    return review(record, **options, progress=progress).to_dict()


def check_record(body) -> dict:
    """``POST /api/record/check``: ``body`` is a game record; the answer is ``{"record": the record in
    canonical form, "totals": the running totals after each round with tricks}``. A bad record raises
    the library's ``RecordError`` (a ``ValueError``): one line naming the entry. The score sheet's import
    and export ask this, so a record is checked by the same rules as ``wizsim review``."""
    from wizsim.record import GameRecord

    record = GameRecord.from_dict(body)
    return {"record": record.to_dict(), "totals": record.totals()}


def unparsed_body(raw: bytes) -> str | None:
    """Why the framework could not parse a JSON body, naming the entry where it can (its own message, "There
    was an error parsing the body", names none): nesting too deep for Python, or a number too long to
    convert (Python's limit is 4,300 digits; no count here has more than a few). None: no such reason."""
    from wizsim.record.game import MAX_NUMBER_DIGITS, LongNumber, RecordError, loads

    try:
        obj = loads(raw)
    except RecordError:
        return "the body is nested too deeply to be a request (a JSON object of fields)"
    except ValueError:
        return None
    stack = [("", obj)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, LongNumber):
            return (f"{where or 'body'}: {value!r} is not a count or an index (a number here has at most "
                    f"{MAX_NUMBER_DIGITS} digits)")
        if isinstance(value, dict):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return None
