"""THE Parquet schemas of wizsim datasets: every column, its type and its description, defined once.

A dataset folder holds two tables, each hive-partitioned by ``players`` and ``round``:

- ``rounds``: one row per (simulated round, seat);
- ``tricks`` (only with ``--trick-log``): one row per trick.

A folder of training examples for the ``net`` policy (``dataset.labels``) holds three other tables,
``EXAMPLE_TABLES`` (``bid_examples``, ``card_examples``, ``trump_examples``), not partitioned (their rounds
have any number of players and any size, which are columns): ``bid_examples/part-000000.parquet``.

``ROUNDS`` and ``TRICKS`` are the full logical tables. The partition columns (``PARTITION_COLUMNS``)
live in the folder names (``rounds/players=4/round=15/part-000000.parquet``), not inside the files;
``file_schema`` gives what a data file holds. Card ids, seats and trump codes follow docs/rules.md:
seats are 1-based (seat 1 bids first and leads trick one, seat ``players`` deals).

Bump ``SCHEMA_VERSION`` on any column change; ``RULES_VERSION`` (wizsim.config) when the simulated
results of a seed could change. The writer stamps both into every file and the reader checks them.
``docs/schema.md`` is generated from this module
(``scripts/gen_schema_docs.py``).
"""

from __future__ import annotations

import pyarrow as pa

from wizsim.config import RULES_VERSION
from wizsim.policies.net import D_BID, D_CARD, D_TRUMP, ENCODING_VERSION, MAX_BID, N_KINDS

SCHEMA_VERSION = 2  # 2: made, trump_suit, turn_up_card; rounds-mode files without the game columns
PARTITION_COLUMNS = ("players", "round")

# schema-level metadata keys (bytes, as Parquet stores them)
KEY_SCHEMA_VERSION = b"wizsim.schema_version"
KEY_RULES_VERSION = b"wizsim.rules_version"
KEY_TABLE = b"wizsim.table"
KEY_VERSION = b"wizsim.version"
KEY_RUN = b"wizsim.run"  # JSON: run id, rules options, policies, seed, counts, the command that re-creates it
KEY_FILE = b"wizsim.file"  # JSON: this file's chunk and partition values
DESCRIPTION = b"description"

_POLICY = pa.dictionary(pa.int8(), pa.string())
_TEXT = pa.dictionary(pa.int8(), pa.string())  # a few distinct texts: stored once, each row an index
_RUN_ID = pa.dictionary(pa.int8(), pa.string())


def _field(name: str, type_: pa.DataType, description: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, type_, nullable=nullable, metadata={DESCRIPTION: description.encode()})


_RUN_FIELDS = [
    _field("run_id", _RUN_ID, "Identifier of the run (a hash of its parameters and versions); the same in every row "
           "and file of one run."),
    _field("round_index", pa.int64(), "The round's index in the run's random stream: round i of a run depends only "
           "on (seed, i). Rounds mode: 0..rounds-1. Game mode: game_id * (60 / players) + game_round - 1."),
    _field("game_id", pa.int64(), "Game mode only: the game's index in the run (0..games-1).",
           nullable=True),
    _field("game_round", pa.int8(), "Game mode only: the round's number in its game, 1..60/players (equal to the "
           "cards per player).", nullable=True),
]
_PARTITION_FIELDS = [
    _field("players", pa.int8(), "Players at the table, 3..6 (partition column: in the folder name)."),
    _field("round", pa.int8(), "Cards dealt to each player this round, 1..60/players (partition column: in the "
           "folder name)."),
]

ROUNDS = pa.schema(
    _RUN_FIELDS + _PARTITION_FIELDS + [
        _field("seat", pa.int8(), "Seat 1..players counted from the dealer's left: seat 1 bids first and leads "
               "trick one, seat `players` deals."),
        _field("player", pa.int8(), "Game mode only: the player (identity 1..players) in this seat this round; the "
               "deal passes left each round.", nullable=True),
        _field("policy", _POLICY, "Name of the policy that played this seat."),
        _field("hand", pa.uint64(), "The seat's hand as dealt: a bit mask, bit `id` set for each card id held "
               "(docs/rules.md: 2S=0 .. AC=51, Wizards 52..55, Jesters 56..59)."),
        _field("n_wizards", pa.int8(), "Wizards in the hand, 0..4."),
        _field("n_jesters", pa.int8(), "Jesters in the hand, 0..4."),
        _field("n_trumps", pa.int8(), "Suited cards of the trump suit in the hand (Wizards not counted); 0 when "
               "there is no trump."),
        _field("turn_up", pa.int8(), "Card id turned up after the deal; -1 when nothing is turned up (the last round "
               "of a game deals every card)."),
        _field("trump", pa.int8(), "Trump suit of the round: 0 S, 1 H, 2 D, 3 C, -1 none (a turned-up Jester or "
               "nothing turned up; a turned-up Wizard lets the dealer choose)."),
        _field("trump_suit", _TEXT, "The trump as text: S, H, D, C or none (the `trump` column's code, readable "
               "without the rules)."),
        _field("turn_up_card", _TEXT, "The turned-up card as text (7D, TS, W a Wizard, J a Jester) or none (the "
               "`turn_up` column, readable without the rules)."),
        _field("bid", pa.int8(), "Tricks the seat bid, 0..round."),
        _field("tricks", pa.int8(), "Tricks the seat took, 0..round; a round's tricks sum to `round`."),
        _field("made", pa.bool_(), "Whether the seat took exactly the tricks it bid (tricks == bid)."),
        _field("score", pa.int16(), "Round score: 20 + 10 * tricks when tricks == bid, else -10 * |tricks - bid|."),
        _field("total", pa.int16(), "Game mode only: the player's running total after this round.",
               nullable=True),
    ],
    metadata={KEY_TABLE: b"rounds", KEY_SCHEMA_VERSION: str(SCHEMA_VERSION).encode(),
              KEY_RULES_VERSION: str(RULES_VERSION).encode()},
)

TRICKS = pa.schema(
    _RUN_FIELDS + _PARTITION_FIELDS + [
        _field("trick", pa.int8(), "Trick number within the round, 1..round."),
        _field("leader", pa.int8(), "Seat (1..players) that led the trick: seat 1 leads trick one, then the "
               "winner of the previous trick."),
        _field("cards", pa.list_(pa.int8()),
               "Card ids in order of play, `players` of them: the i-th (0-based) was played by seat "
               "(leader - 1 + i) % players + 1."),
        _field("winner", pa.int8(), "Seat (1..players) that won the trick."),
    ],
    metadata={KEY_TABLE: b"tricks", KEY_SCHEMA_VERSION: str(SCHEMA_VERSION).encode(),
              KEY_RULES_VERSION: str(RULES_VERSION).encode()},
)

TABLES = {"rounds": ROUNDS, "tricks": TRICKS}

# Training examples of the ``net`` policy: features and every candidate's value are fixed-size lists of float32.
# One list column, not one column per feature: Parquet stores it as one column chunk (not 173..364), pyarrow
# hands it to NumPy as one (rows, size) block without a copy (``FixedSizeListArray.flatten``), and the size
# in the type says how to reshape it; pandas sees one column of arrays (``np.stack`` them).
KEY_ENCODING_VERSION = b"wizsim.encoding_version"
_EXAMPLE_FIELDS = [
    _RUN_FIELDS[0],
    _field("round_index", pa.int64(), "The round's index in the run's random stream: round i depends only on (seed, "
           "i); the run's rounds are first..first+rounds-1."),
    _field("players", pa.int8(), "Players at the table, 3..6 (drawn per round from the round's stream)."),
    _field("round", pa.int8(), "Cards dealt to each player, 1..60/players (drawn per round)."),
    _field("hook", pa.bool_(), "Whether the round is played on the hook (a quarter of the rounds)."),
    _field("seat", pa.int8(), "The deciding seat, 1..players counted from the dealer's left (seat `players` "
           "deals and names the trump)."),
]


def _examples(table: str, features: str, n_features: int, scores: str, n_scores: int) -> pa.Schema:
    return pa.schema(_EXAMPLE_FIELDS + [
        _field("features", pa.list_(pa.float32(), n_features), features),
        _field("scores", pa.list_(pa.float32(), n_scores), scores),
    ], metadata={KEY_TABLE: table.encode(), KEY_SCHEMA_VERSION: str(SCHEMA_VERSION).encode(),
                 KEY_RULES_VERSION: str(RULES_VERSION).encode(),
                 KEY_ENCODING_VERSION: str(ENCODING_VERSION).encode()})


_SCORE = ("the seat's round score when it takes that candidate and the heuristic plays the rest of the round on the "
          "true deal (the search policy's value of it on one world); NaN for a candidate that is not legal.")
BID_EXAMPLES = _examples(
    "bid_examples", f"The bid network's input ({D_BID} values, `wizsim.policies.net` encoding "
    f"{ENCODING_VERSION}) for the seat's bid decision.", D_BID,
    f"Per bid 0..{MAX_BID}: " + _SCORE, MAX_BID + 1)
CARD_EXAMPLES = _examples(
    "card_examples", f"The card network's input ({D_CARD} values, encoding {ENCODING_VERSION}) for a card decision "
    "with two or more legal card kinds (a share of them, the run's `p_card`).", D_CARD,
    f"Per canonical card kind 0..{N_KINDS - 1} (suit-major with the trump as suit 0, then Wizard, Jester): " + _SCORE,
    N_KINDS)
TRUMP_EXAMPLES = _examples(
    "trump_examples", f"The trump network's input for each suit 0..3 named as trump (4 x {D_TRUMP} values, suit "
    f"by suit, encoding {ENCODING_VERSION}): the dealer's choice after a turned-up Wizard.", 4 * D_TRUMP,
    "Per suit S, H, D, C named: " + _SCORE, 4)
EXAMPLE_TABLES = {"bid_examples": BID_EXAMPLES, "card_examples": CARD_EXAMPLES, "trump_examples": TRUMP_EXAMPLES}
MODES = ("games", "rounds")
# The columns only whole games fill: a rounds-mode dataset has none of them (not columns of nulls).
GAME_ONLY = {"rounds": ("game_id", "game_round", "player", "total"), "tricks": ("game_id", "game_round")}


def table_schema(table: str, mode: str = "games") -> pa.Schema:
    """A table's columns in a dataset of ``mode``: ``"games"`` (every column) or ``"rounds"`` (no game columns);
    an example table's (``EXAMPLE_TABLES``) whatever the mode."""
    if table in EXAMPLE_TABLES:
        return EXAMPLE_TABLES[table]
    try:
        schema = TABLES[table]
    except KeyError:
        raise ValueError(f"unknown table {table!r}: choose from {', '.join(TABLES)}") from None
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: choose from {', '.join(MODES)}")
    if mode == "rounds":
        for name in GAME_ONLY[table]:
            schema = schema.remove(schema.get_field_index(name))
    return schema


def file_schema(table: str, mode: str = "games") -> pa.Schema:
    """The columns a data file holds: the table without its partition columns (they are in the path)."""
    schema = table_schema(table, mode)
    if table in EXAMPLE_TABLES:
        return schema
    for name in PARTITION_COLUMNS:
        schema = schema.remove(schema.get_field_index(name))
    return schema


def mode_of(names) -> str:
    """The mode of a file or table from its column names: game columns mean whole games."""
    return "games" if "game_id" in names else "rounds"


def partitioning_schema() -> pa.Schema:
    """Types of the hive partition columns, for readers that want them as declared (int8)."""
    schema = ROUNDS
    return pa.schema([schema.field(name) for name in PARTITION_COLUMNS])


def describe(field: pa.Field) -> str:
    return (field.metadata or {}).get(DESCRIPTION, b"").decode()
