"""Every rule constant and enum of the conquest season, standard library only [§0-§9].

The engine, the verifier, the forecast kernel, the rules page and `engine.js` read these names
(the JavaScript verifier spells them the same way, and a test compares the two). The file is
shipped in every season archive beside `engine.py`, so it imports nothing but the standard
library.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any, NotRequired, TypedDict

__all__ = [
    "BASIS_POINTS",
    "BEACON_LEAD_SECONDS",
    "BEFORE_LUCK_ENGINE_FILES",
    "BEFORE_WITNESS_ENGINE_FILES",
    "BORDER_KINDS",
    "BattleEntry",
    "BattleKind",
    "Board",
    "CATEGORIES",
    "CATEGORY_TYPES",
    "CLAMP_PER_MILLE",
    "COUNTERS",
    "COUNTER_BONUS",
    "COUNTER_CIRCLE",
    "Category",
    "DRAWS_PER_BATTLE",
    "DRAW_ROLES",
    "ENGINE_FILES",
    "ENGINE_VERSION",
    "FAN_BOOST_AT_CAP",
    "FactionRecord",
    "FactionType",
    "GUIDE",
    "HOME_BONUS",
    "INTEGRATION_DENOMINATOR",
    "INTEGRATION_START",
    "INTEGRATION_STEP",
    "LAND",
    "LEGACY_ENGINE_FILES",
    "LOG_KEY",
    "LOG_RECORD_FILES",
    "LUCK_ENGINE_FILE",
    "LUCK_FORMAT",
    "MANIFEST",
    "MORALE_CAP_BP",
    "MORALE_DECAY",
    "MORALE_UPSET_BP",
    "MORALE_WIN_BP",
    "POOL_CAP",
    "POOL_STEP",
    "POWER_EXPONENT",
    "POWER_SCALE",
    "PREVIOUS_ENGINE_FILES",
    "PoolState",
    "QUICKNET",
    "RATING_MAX",
    "RATING_MIN",
    "RATING_WEIGHTS",
    "RECORD_FILES",
    "ROUNDS_TO_WIN",
    "ROUND_BITS",
    "ROUND_CEILING",
    "ROUND_FLOOR",
    "ROUND_SCALE",
    "Reason",
    "RegionRecord",
    "RegionRules",
    "SEA",
    "SEA_FACTOR",
    "SHOWN_LENGTH",
    "SPECIAL_BONUS",
    "STRENGTH_FACTORS",
    "SeasonState",
    "Side",
    "UPSET_BELOW",
    "World",
]

ENGINE_VERSION = "fairfight-conquest-1"
"""Named in every season header; a record made by another engine version is not replayed."""


class Category(enum.StrEnum):
    """A rating category; each battle fights one round per category, in this order."""

    P = "P"
    """Production (industry)"""
    S = "S"
    """Supplies (resources)"""
    M = "M"
    """Movement (logistics)"""
    R = "R"
    """Readiness (preparedness)"""
    U = "U"
    """Unity (cohesion)"""


class FactionType(enum.StrEnum):
    """A faction's type, set by its special's category; each type counters the next one."""

    FORGE = "Forge"
    """Industry: it out-produces stockpiles of raw goods."""
    SUPPLY = "Supply"
    """Stockpiles: deep reserves outlast raids on the routes."""
    ROUTE = "Route"
    """Mobility: fast columns go around fortresses."""
    FORTRESS = "Fortress"
    """Walls: prepared defences hold against coalitions."""
    ALLIANCE = "Alliance"
    """Cohesion: a united people out-organises industry."""


class BattleKind(enum.StrEnum):
    """What a history entry is."""

    REGULAR = "regular"
    """Attacker, defender and border drawn at random."""
    BONUS = "bonus"
    """A rebellion: an absorbed home region, its fund full, fights its occupier."""


class Reason(enum.StrEnum):
    """Why the winner won."""

    NATURAL = "NATURAL"
    """The side with three or more round wins."""
    FAN_POWER = "FAN POWER"
    """A full pool secured the win although the draws went the other way."""
    FAN_CLASH = "FAN CLASH"
    """Both sides held a full pool; both were spent and the draws decided."""


class PoolState(enum.StrEnum):
    """The state of a faction's single fan pool for the season."""

    OPEN = "open"
    """Still taking contributions; an empty open pool is not used in battle."""
    SPENT = "spent"
    """Used as a boost or as a rebellion fund; closed for the season."""


# ---------------------------------------------------------------- ratings and types [§0, §1.2, §4]

CATEGORIES: tuple[Category, ...] = tuple(Category)
RATING_WEIGHTS: dict[Category, int] = {
    Category.P: 30,
    Category.S: 25,
    Category.M: 20,
    Category.R: 15,
    Category.U: 10,
}
"""The weights of the rating composite W = 30P + 25S + 20M + 15R + 10U (W is the average ×100)."""
RATING_MIN, RATING_MAX = 1, 10
"""Every rating is a whole number in this range [§0]."""
CATEGORY_TYPES: dict[Category, FactionType] = dict(zip(CATEGORIES, FactionType, strict=True))
COUNTER_CIRCLE: tuple[FactionType, ...] = tuple(FactionType)
COUNTERS: dict[FactionType, FactionType] = {
    kind: COUNTER_CIRCLE[(i + 1) % len(COUNTER_CIRCLE)] for i, kind in enumerate(COUNTER_CIRCLE)
}
"""Each type counters the next one round the circle [§4]."""

# ---------------------------------------------------------------- strength [§1.2]

POWER_EXPONENT = Fraction(7, 20)
POWER_SCALE = 10**6
"""Population power is N**0.35 in millionths, by an exact integer root."""

SPECIAL_BONUS = Fraction(110, 100)
HOME_BONUS = Fraction(112, 100)
SEA_FACTOR = Fraction(80, 100)
COUNTER_BONUS = Fraction(108, 100)
STRENGTH_FACTORS = ("home", "sea", "counter", "morale")
"""The factors of a side record that multiply its base strength in every round (fan apart)."""

# ---------------------------------------------------------------- rounds and battles [§1.2, §2]

ROUND_BITS = 32
ROUND_SCALE = 1 << ROUND_BITS
CLAMP_PER_MILLE = 189
ROUND_FLOOR = CLAMP_PER_MILLE * ROUND_SCALE // 1000
ROUND_CEILING = ROUND_SCALE - ROUND_FLOOR
"""A round chance is a whole number out of 2**32, held between 18.9% and 81.1%."""
ROUNDS_TO_WIN = 3
UPSET_BELOW = Fraction(35, 100)
"""A win whose battle chance was below this is an upset."""

DRAWS_PER_BATTLE = 8
DRAW_ROLES = ("attacker", "defender", "border", *(f"round {c}" for c in Category))
"""What each of a battle's draws decides, in draw order."""

# ---------------------------------------------------------------- morale and integration [§5]

BASIS_POINTS = 10_000
MORALE_DECAY = Fraction(82, 100)
MORALE_WIN_BP = 200
MORALE_UPSET_BP = 600
MORALE_CAP_BP = 1200

INTEGRATION_START = 8
INTEGRATION_STEP = 3
INTEGRATION_DENOMINATOR = 32
"""A captured region counts (8 + 3k)/32 of its people k battles after the first one, at most 1."""

# ---------------------------------------------------------------- fan pools [§6]

POOL_STEP = 5
POOL_CAP = 50
FAN_BOOST_AT_CAP = Fraction(10, 100)
"""A partial pool a multiplies strength by 1 + 0.10 * a / 50; a full pool secures the win."""

# ---------------------------------------------------------------- the map [§0]

LAND, SEA = "land", "sea"
BORDER_KINDS = (LAND, SEA)

# ---------------------------------------------------------------- the beacon [§2, §8]

QUICKNET: dict[str, Any] = {
    "name": "quicknet",
    "chain_hash": "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    "genesis": 1692803367,
    "period_seconds": 3,
}
"""drand quicknet, the default beacon: round r comes out at genesis + (r − 1) × period_seconds
(unix seconds). The verifier knows a chain by its hash and times rounds only on chains it knows."""
BEACON_LEAD_SECONDS = 60
"""`conquest new` takes a beacon round only if it comes out at least this long after the header
is published, time enough to post the commitment first; the verifier asks only "after"."""

# ---------------------------------------------------------------- the season archive [§9]

RECORD_FILES = {
    "header": "header.json",
    "commitment": "commitment.txt",
    "seed": "seed.txt",
    "beacon": "beacon.json",
    "map": "map.json",
    "ledger": "ledger.jsonl",
    "history": "history.jsonl",
    "final_map": "final-map.json",
}
"""The files of a published season record, by role."""
ENGINE_FILES = (
    "beacons.py",
    "cosignature.py",
    "draws.py",
    "ed25519.py",
    "engine.js",
    "engine.py",
    "errors.py",
    "exact.py",
    "log_check.py",
    "merkle.py",
    "quorum_check.py",
    "records.py",
    "season_luck.py",
    "seasonlog.js",
    "signed_note.py",
    "tables.py",
    "verifier.py",
)
"""The verifier files a season archive carries (the Python verifier and every file it imports,
engine.js and the season log's JavaScript checks); the header names the SHA-256 of each."""
BEFORE_WITNESS_ENGINE_FILES = (
    "beacons.py",
    "draws.py",
    "ed25519.py",
    "engine.js",
    "engine.py",
    "errors.py",
    "exact.py",
    "log_check.py",
    "merkle.py",
    "records.py",
    "season_luck.py",
    "seasonlog.js",
    "tables.py",
    "verifier.py",
)
"""The verifier files of archives written before checkpoints and witness quorums (no
`quorum_check.py`, `signed_note.py` or `cosignature.py`); still accepted."""
BEFORE_LUCK_ENGINE_FILES = (
    "beacons.py",
    "draws.py",
    "ed25519.py",
    "engine.js",
    "engine.py",
    "errors.py",
    "exact.py",
    "log_check.py",
    "merkle.py",
    "records.py",
    "seasonlog.js",
    "tables.py",
    "verifier.py",
)
"""The verifier files of archives written before `luck.json` (no `season_luck.py`); still
accepted, and such an archive carries no `luck.json`."""
PREVIOUS_ENGINE_FILES = (
    "beacons.py",
    "draws.py",
    "engine.js",
    "engine.py",
    "errors.py",
    "exact.py",
    "tables.py",
    "verifier.py",
)
"""The verifier files of archives written before the season log; still accepted."""
LEGACY_ENGINE_FILES = ("draws.py", "engine.js", "engine.py")
"""The verifier files of archives written before the verifier left engine.py; still accepted."""
LOG_RECORD_FILES = {"log": "log.json", "refunds": "refunds.json", "luck": "luck.json"}
"""Record files a season archive may add, by role: the season log (leaves and the final signed
head; present exactly when the header names a `log_key`), the refunds owed (public part) and
the season's luck (present exactly when the header names `LUCK_ENGINE_FILE`)."""
LUCK_ENGINE_FILE = "season_luck.py"
"""The verifier file that computes `luck.json`; an archive whose header names it carries one."""
LUCK_FORMAT = "fairfight-conquest-luck-1"
"""The `format` field of `luck.json`, so a later layout can be told apart."""
LOG_KEY = "log_key"
"""The optional header field holding the season key's Ed25519 public key (64 hex digits): every
signed head of the season log verifies under it, so it is published before battle 1."""
GUIDE = "VERIFY.md"
MANIFEST = "manifest.sha256"
"""`sha256sum` format: one `<64 hex digits>  <file name>` line per other file of the archive."""
SHOWN_LENGTH = 40
"""A value in a mismatch message is cut to this many characters, so the line stays short."""


# ---------------------------------------------------------------- the plain data's shapes


class FactionRecord(TypedDict):
    """A faction on the board [§5, §6]: standing or absorbed, morale, and its fan pool."""

    standing: bool
    morale: int
    """Basis points, 0 to the cap."""
    pool: int
    """Dollars in the pool (or a fallen faction's rebellion fund)."""
    pool_state: str
    """A `tables.PoolState` value."""


class RegionRecord(TypedDict):
    """A region on the board: who holds it and the battle it was taken in (None at home)."""

    owner: str
    captured_at: int | None


class Board(TypedDict):
    """The public board between two battles: everything a battle changes."""

    next_battle: int
    ended: bool
    factions: dict[str, FactionRecord]
    regions: dict[str, RegionRecord]


class RegionRules(TypedDict):
    """What the rules read of a region of the map: people, ratings by category, special."""

    population: int
    ratings: dict[str, int]
    special: str


class World(TypedDict):
    """The compiled map (`compile_world`): regions by code, borders [a, b, kind, remote] in
    (a, b) order, and each region's neighbours in code order."""

    regions: dict[str, RegionRules]
    borders: list[list[Any]]
    neighbours: dict[str, list[str]]


class SeasonState(TypedDict):
    """A season between two battles: the world, the season key, the cap and the board."""

    world: World
    key: str
    max_battles: int | None
    board: Board


class Side(TypedDict):
    """One side of a battle as the history stores it: every number in its strength [§1]."""

    faction: str
    type: str
    special: str
    special_active: bool
    people: int
    power: int
    weighted_rating: int
    base: int
    morale_bp: int
    morale: str
    home: str
    sea: str
    counter: str
    fan: str
    """The four factors as reduced "num/den" text."""
    pool: NotRequired[int]
    """The pool the side brings (set once the side is made)."""


class BattleEntry(TypedDict, total=False):
    """One history entry [§9]: the battle, its draws, its sides, rounds and what changed.
    Built in steps (`_entry`, then the pick, the fight and the board's changes), so every key
    is optional to the type; a finished entry holds them all."""

    number: int
    kind: str
    draws: list[dict[str, int]]
    attacker: str
    defender: str
    sides: dict[str, Side]
    candidates: dict[str, int] | None
    border: dict[str, Any] | None
    secured: bool
    rounds: list[dict[str, Any]]
    attacker_rounds: int
    battle_chance: dict[str, str]
    natural_winner: str
    winner: str
    loser: str
    upset: bool
    reason: str
    pools_spent: dict[str, int]
    changed_hands: list[str]
    absorbed: str | None
    restored: str | None
    morale_after: dict[str, int]
    season_over: bool
