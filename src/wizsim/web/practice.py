"""The practice table (``POST /api/play``): a person plays a whole game against wizsim's players.

Stateless: a request names the game (``players``, ``me``, the others' ``policies``, ``seed``, ``hook``,
``rounds``) and every choice ``me`` made so far, in order (``choices``: a suit on a turned-up Wizard when
``me`` deals, a bid, a card); the server replays the game with ``wizsim.Game`` (the public step API),
the others deciding through ``wizsim.player(name, seed=...)`` from their own observation, each with
its own random stream keyed by the game's seed and its player number. So the same seed and choices
give the same game, a reload resumes it, and any number of games run at once. The answer is what
``me`` sees: the hand, the turned-up card and trump, the bids, the trick as it forms, each finished
trick with its winner, the legal actions, the scores and the game so far as a game record
(docs/game-record.md), plus ``advise``: the ``POST /api/advise`` request for the decision at hand
(the hint).

Bounds: the request is small (``api.MAX_BODY_BYTES``); a replay costs the others' decisions, so a
bounded memo of recent games (``MEMO_GAMES`` entries) lets the next request start from the game as
the previous one left it, and a request whose replay would cost more than ``MAX_REPLAY_COST``
heuristic card plays is refused with one line; the work runs in the server's answer queue like advice.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from wizsim.web.api import MAX_CARD_PLAYS, RequestError, _show

MEMO_GAMES = 256  # games kept between requests (each a few tens of KB)
DECISION_OVERHEAD = 5_000  # one Python-level decision of a seated player, in heuristic card plays
MAX_REPLAY_COST = MAX_CARD_PLAYS  # the same bound as one advice request
PLAY_FIELDS = ("players", "me", "names", "policies", "seed", "hook", "rounds", "choices")
SUITS = "SHDC"
PLAY_SUMMARY = "The practice table: replay a game to your next decision (what you see)"
PLAY_BODY = "players, me, names, policies, seed, hook, rounds and your choices so far (wizsim/web/practice.py)"
PLAY_RESPONSES = {400: {"description": "The body is not a JSON object"}, 413: {"description": "The body is too large"},
                  422: {"description": "A bad setup or choice: {\"detail\": \"one line\"}"},
                  503: {"description": "The server is busy: try again after Retry-After seconds"}}
PLAY_EXAMPLE = {"players": 4, "me": 0, "policies": "heuristic", "seed": 7, "rounds": 3, "choices": [1]}


def _int(body: dict, name: str, low: int, high: int, default: int) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(f"{name} must be a whole number {low}..{high}, got {_show(value)}")
    return value


def _policies(value, n: int) -> list[str]:
    """One built-in policy name per other player (a name for all, or a list of n - 1)."""
    from wizsim.policies.registry import POLICIES, USER_PLAYERS, check_policy

    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or len(names) not in (1, n - 1):
        raise RequestError(f"policies must be one policy name or a list of {n - 1} (one per other player), "
                           f"got {_show(value)}")
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise RequestError(f"policies[{i}] must be a policy name like heuristic, got {_show(name)}")
        name = name.strip()
        if name in USER_PLAYERS:
            raise RequestError(f"policies[{i}]: {name} is a user's player; the practice table seats wizsim's own "
                               f"policies ({', '.join(POLICIES)})")
        if name.split(":")[0].strip().lower() not in POLICIES:  # never a FILE.py:NAME spec from a request
            raise RequestError(f"policies[{i}]: unknown policy {name!r}: the policies are {', '.join(POLICIES)}")
        try:
            out.append(check_policy(name))
        except ValueError as err:
            raise RequestError(f"policies[{i}]: {err}") from None
    return out * (n - 1) if len(out) == 1 else out


class Setup:
    """A practice game's fixed part, checked; ``key`` names it in the memo."""

    def __init__(self, body: dict):
        from wizsim.config import n_game_rounds

        if not isinstance(body, dict):
            raise RequestError(f"the request body must be a JSON object, got {_show(body)}", 400)
        unknown = [k for k in body if k not in PLAY_FIELDS]
        if unknown:
            raise RequestError(f"unknown field {unknown[0]!r}: the fields are {', '.join(PLAY_FIELDS)}")
        self.players = n = _int(body, "players", 3, 6, 4)
        self.me = _int(body, "me", 0, n - 1, 0)
        self.seed = _int(body, "seed", 0, 2**63 - 1, 0)
        hook = body.get("hook", False)
        if not isinstance(hook, bool):
            raise RequestError(f"hook must be true or false, got {_show(hook)}")
        self.hook = hook
        self.n_rounds = _int(body, "rounds", 1, n_game_rounds(n), n_game_rounds(n))
        others = _policies(body.get("policies", "heuristic"), n)
        self.policies = others[:self.me] + [None] + others[self.me:]  # by player index; None: me
        names = body.get("names")
        if names is None:
            names = [f"{p} {i + 1}" for i, p in enumerate(self.policies)]
            names[self.me] = "You"
        if (not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) and x.strip() for x in names)
                or len({x.strip() for x in names}) != n or any(len(x) > 40 for x in names)):
            raise RequestError(f"names must be {n} different names (at most 40 characters each), got {_show(names)}")
        self.names = [x.strip() for x in names]
        choices = body.get("choices", [])
        if not isinstance(choices, list) or len(choices) > 2_000:
            raise RequestError(f"choices must be a list of your choices so far (a suit, a bid, a card), got "
                               f"{_show(choices)}")
        self.choices = choices
        self.key = (n, self.me, self.seed, hook, self.n_rounds, tuple(self.policies))

    def memo_key(self, k: int) -> tuple:
        return (*self.key, tuple(map(str, self.choices[:k])))


class Table:
    """A game in progress with its seated players and how many of ``me``'s choices it has taken."""

    def __init__(self, setup: Setup):
        from wizsim.table import Game, player

        self.game = Game(setup.players, seed=setup.seed, hook=setup.hook)
        self.bots = [None if name is None else player(name, seed=_bot_seed(setup.seed, p))
                     for p, name in enumerate(setup.policies)]
        self.taken = 0
        self.cost = 0.0
        self.finished: list[dict] = []  # the finished rounds as record entries, made once

    def done(self, setup: Setup) -> bool:
        return self.game.is_over or len(self.game.history) >= setup.n_rounds

    def advance(self, setup: Setup, budget: float) -> None:
        """Play on: ``me``'s next choices as given, the others as they decide, until ``me`` must choose
        again or the game ends. ``RequestError`` naming a bad choice or a replay over ``budget``."""
        from wizsim.policies.registry import policy_cost

        game = self.game
        while not self.done(setup):
            p = game.current_player - 1
            if p == setup.me:
                if self.taken == len(setup.choices):
                    return
                action = _action(game, setup.choices[self.taken], f"choices[{self.taken}]")
                try:
                    game.apply(action)
                except ValueError as err:
                    raise RequestError(f"choices[{self.taken}]: {err}") from None
                self.taken += 1
                continue
            self.cost += DECISION_OVERHEAD + policy_cost(setup.policies[p], game.round.r)
            if self.cost > budget:
                raise RequestError(f"replaying this game costs more than {budget:,.0f} heuristic card plays on this "
                                   "server (the others' policies are dear): start a shorter game or cheaper opponents")
            bot, obs = self.bots[p], game.observation(p + 1)
            game.apply(getattr(bot, obs.phase)(obs))
        if self.taken < len(setup.choices):
            raise RequestError(f"choices[{self.taken}]: the game is over; {len(setup.choices) - self.taken} "
                               "choice(s) too many")


def _bot_seed(seed: int, player: int) -> int:
    """A seated player's own stream: from the game's seed and its index, the same on every replay."""
    return (seed * 7 + player + 1) % (2**63)


def _action(game, choice, where: str) -> int:
    """``me``'s choice as the game's action: a suit letter (trump), a whole number (bid), card text (card)."""
    from wizsim.cards import CardError, card_ids

    phase = game.phase
    if phase == "trump":
        if not isinstance(choice, str) or choice.strip().upper() not in tuple(SUITS):
            raise RequestError(f"{where}: you deal on a turned-up Wizard: name the trump, S, H, D or C, got "
                               f"{_show(choice)}")
        return SUITS.index(choice.strip().upper())
    if phase == "bid":
        if isinstance(choice, bool) or not isinstance(choice, int):
            raise RequestError(f"{where}: your bid, a whole number 0..{game.round.r}, got {_show(choice)}")
        return choice
    if not isinstance(choice, str):
        raise RequestError(f"{where}: the card you play, like AS or W, got {_show(choice)}")
    text = choice.strip().upper()
    hand = game.observation(game.current_player).hand
    if text in ("W", "J"):  # a Wizard or Jester: any of the copies held
        from wizsim.cards import FIRST_JESTER, FIRST_WIZARD

        low = FIRST_WIZARD if text == "W" else FIRST_JESTER
        held = [c for c in hand if low <= c < low + 4]
        if held:
            return held[0]
    try:
        (card,) = card_ids(text, where)
    except (CardError, ValueError) as err:
        raise RequestError(str(err) if str(err).startswith(where) else f"{where}: {err}") from None
    return int(card)


_memo: OrderedDict = OrderedDict()
_lock = threading.Lock()


def _take(setup: Setup) -> Table:
    """The table as a recent request left it (the longest prefix of the choices kept), else a new one."""
    with _lock:
        for k in range(len(setup.choices), max(-1, len(setup.choices) - 3), -1):
            table = _memo.pop(setup.memo_key(k), None)
            if table is not None:
                return table
    return Table(setup)


def _keep(setup: Setup, table: Table) -> None:
    """Keep ``table`` for the next request (it is not touched after: the next request takes it out first)."""
    with _lock:
        _memo[setup.memo_key(table.taken)] = table
        while len(_memo) > MEMO_GAMES:
            _memo.popitem(last=False)


def play_answer(body) -> dict:
    """``POST /api/play``: the game replayed to ``me``'s next decision; what ``me`` sees (module docstring)."""
    setup = Setup(body)
    table = _take(setup)  # taken out of the memo: no other request touches it meanwhile
    table.cost = 0.0
    table.advance(setup, MAX_REPLAY_COST)
    out = view(setup, table)
    _keep(setup, table)
    return out


# ---- what me sees --------------------------------------------------------------------------------------

def _player(game, seat: int, k: int) -> int:
    return game.player_at(seat, k) - 1


def _round_dict(setup: Setup, game, k: int, rnd) -> dict:
    """A round as the game record writes it (docs/game-record.md)."""
    from wizsim.cards import format_card, format_cards, format_trump

    n = setup.players
    by_player = [0] * n
    for seat in range(1, n + 1):
        by_player[_player(game, seat, k)] = seat - 1
    cards = [format_card(c) for _, c in rnd.played]
    tricks = [",".join(cards[t:t + n]) for t in range(0, len(cards), n)]
    out = {"r": rnd.r, "turn_up": None if rnd.turn_up < 0 else format_card(rnd.turn_up),
           "trump": format_trump(rnd.trump), "bids": [rnd.bids[by_player[p]] for p in range(n)],
           "tricks": [rnd.tricks[by_player[p]] for p in range(n)] if rnd.is_over else None,
           "hand": format_cards(rnd.hands[by_player[setup.me]])}
    if cards:
        out["played"] = "/".join(tricks)
    return out


def record_of(setup: Setup, table: Table) -> dict:
    """The game so far as a game record: every finished round, and the current one once every bid is in."""
    game = table.game
    done = game.history[:setup.n_rounds]
    table.finished += [_round_dict(setup, game, k, done[k]) for k in range(len(table.finished), len(done))]
    rounds = list(table.finished)
    if not table.done(setup) and all(b is not None for b in game.round.bids):
        rounds.append(_round_dict(setup, game, len(game.history), game.round))
    return {"players": list(setup.names), "first_dealer": game.first_dealer - 1, "hook": setup.hook,
            "me": setup.me, "rounds": rounds}


def _tricks_of(setup: Setup, game, k: int, rnd) -> list[dict]:
    """The round's tricks so far: each one's cards with who played them, and its winner once complete."""
    from wizsim.cards import format_card

    n, out = setup.players, []
    for t in range(0, len(rnd.played), n):
        cards = [{"player": _player(game, s, k), "card": format_card(c)} for s, c in rnd.played[t:t + n]]
        winner = rnd.trick_winners[t // n] if t // n < len(rnd.trick_winners) else None
        out.append({"cards": cards, "winner": None if winner is None else _player(game, winner, k)})
    return out


def view(setup: Setup, table: Table) -> dict:
    from wizsim.cards import format_card, format_cards, format_trump

    game, n = table.game, setup.players
    over = table.done(setup)
    k = len(game.history) - 1 if over else len(game.history)
    rnd = game.history[k] if over else game.round
    seat = game.seat_of(setup.me + 1, k)
    obs = rnd.observation(seat)
    to_act = not over and game.current_player - 1 == setup.me
    phase = "over" if over else rnd.phase
    by_player = [0] * n
    for s in range(1, n + 1):
        by_player[_player(game, s, k)] = s - 1
    legal: list = []
    if to_act:
        acts = game.legal_actions()
        legal = [SUITS[a] for a in acts] if phase == "trump" else acts if phase == "bid" else \
            [format_card(a) for a in acts]
    totals = list(game.scores())
    out = {
        "players": n, "me": setup.me, "names": setup.names, "seed": setup.seed, "hook": setup.hook,
        "policies": setup.policies, "rounds": setup.n_rounds, "round": rnd.r, "phase": phase,
        "game_over": over, "to_act": to_act, "choices_taken": table.taken,
        "dealer": _player(game, n, k), "leads_first": _player(game, 1, k), "seat": seat,
        "current": None if over or game.current_player is None else game.current_player - 1,
        "hand": format_cards(obs.hand).split(",") if obs.hand else [],
        "turn_up": None if rnd.turn_up < 0 else format_card(rnd.turn_up),
        "trump": None if rnd.trump is None else format_trump(rnd.trump),
        "bids": [rnd.bids[by_player[p]] for p in range(n)],
        "tricks": [rnd.tricks[by_player[p]] for p in range(n)],
        "trick_log": _tricks_of(setup, game, k, rnd),
        "legal": legal, "totals": totals,
        "record": record_of(setup, table),
    }
    if to_act:
        out["advise"] = _hint_request(setup, rnd, obs, phase)
    return out


def _hint_request(setup: Setup, rnd, obs, phase: str) -> dict:
    """The ``POST /api/advise`` request for ``me``'s decision, from what ``me`` knows (the CLI's options)."""
    from wizsim.cards import format_card, format_cards, format_trump

    req = {"hand": format_cards(obs.hand), "seat": obs.seat, "players": setup.players}
    if setup.hook:
        req["hook"] = True
    if rnd.turn_up >= 0:
        req["trump_card"] = format_card(rnd.turn_up)
    if phase == "trump":
        return req  # the dealer on a turned-up Wizard: trump advice
    req["trump"] = format_trump(rnd.trump)
    bids = [b for b in obs.bids if b is not None]
    if phase == "bid":
        if bids:
            req["bids"] = bids
        return req
    req["hand"] = format_cards(obs.hand)
    req["bids"] = list(obs.bids)
    cards = [format_card(c) for _, c in obs.played]
    if cards:
        n = setup.players
        req["played"] = "/".join(",".join(cards[t:t + n]) for t in range(0, len(cards), n))
    return req
