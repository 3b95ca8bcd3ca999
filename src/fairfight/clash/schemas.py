"""JSON Schemas, with a description on every field, for what a game exchanges with the engine.

Four documents cross the boundary: a scenario (the board and units a game starts from), the
orders of a turn, a game record (JSON Lines: a header, then one line per turn), and the
outcome of one clash (the combat event, `exchange.Outcome.to_json`). Scenarios and orders
are the pydantic models that read them; the record lines and the outcome are described here
by models of the same shape, which the tests keep equal to what the engine writes
(`fairfight clash schema --kind ...` prints any of them).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fairfight.clash import tables as t
from fairfight.clash.exchange import DefenderFate
from fairfight.clash.orders import TurnOrders
from fairfight.clash.scenario import Scenario, scenario_schema
from fairfight.clash.spec import ClashSpec

__all__ = [
    "After",
    "Contributions",
    "Count",
    "DRAFT",
    "EVENT_KINDS",
    "Event",
    "OutcomeModel",
    "ParticipantAfter",
    "RECORD_FORMAT",
    "RecordHeader",
    "RecordTurn",
    "SCHEMA_KINDS",
    "json_schema",
]

RECORD_FORMAT = "fairfight-clash-game/1"
"""The `format` of a game record's header line."""
SCHEMA_KINDS = ("scenario", "orders", "record", "outcome")
"""The documents `json_schema` describes."""
EVENT_KINDS = (
    "turn", "orders", "move", "abandon", "clash", "carry_over", "retreat", "rout",
    "hold_shaken", "disengage", "caught", "advance", "capture", "destroyed", "skipped",
    "recovery", "end",
)
"""Every event a turn writes, in the order docs/clash.md lists them."""
DRAFT = "https://json-schema.org/draft/2020-12/schema"

_CONFIG = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
Count = Annotated[int, Field(ge=0)]


class Contributions(BaseModel):
    """Step 1: each unit's contribution to its side's power [CB-470]."""

    model_config = _CONFIG

    lead: int
    """The lead's contribution."""
    supporters: list[int]
    """Each supporter's contribution, in the spec's order."""
    defender: int
    """The top defender's contribution."""


class ParticipantAfter(BaseModel):
    """One participant after the clash."""

    model_config = _CONFIG

    loss: Count
    """Strength lost in this clash."""
    disorder_gain: Count
    """Disorder added by this clash [CB-1190]."""
    xp_gain: Count
    """Experience gained, after the per-turn cap [CB-1220]."""
    strength: Annotated[int, Field(ge=0, le=t.MAX_STRENGTH)]
    """Strength afterwards (0: destroyed)."""
    disorder: Annotated[int, Field(ge=0, le=t.MAX_DISORDER)]
    """Disorder afterwards."""
    shaken: Annotated[int, Field(ge=0, le=t.SHAKEN_ON_HOLD)]
    """Shaken afterwards (2 after breaking in place) [CB-1130]."""


class After(BaseModel):
    """Everyone's state after the clash."""

    model_config = _CONFIG

    lead: ParticipantAfter
    """The lead attacker."""
    supporters: list[ParticipantAfter]
    """Each supporter, in the spec's order."""
    defender: ParticipantAfter
    """The top defender."""


class OutcomeModel(BaseModel):
    """One resolved clash: its spec, its draw, every named quantity and every consequence
    [CB-2450]."""

    model_config = _CONFIG

    spec: ClashSpec
    """The specification resolved."""
    r: Annotated[int, Field(ge=0, le=t.HIGH_DRAW)]
    """The draw, 0-999 [CB-800]."""
    contributions: Contributions
    """Step 1 per unit."""
    a_raw: int
    """Attacker power before modifiers (Step 2)."""
    d_raw: int
    """Defender power before modifiers (Step 2)."""
    attacker_mods: int
    """The attacker's modifiers, summed and clamped, per mille (Step 3) [CB-550]."""
    defender_mods: int
    """The defender's modifiers, summed and clamped, per mille (Step 3) [CB-600]."""
    a: int
    """Attacker power A after modifiers."""
    d: int
    """Defender power D after modifiers."""
    volatility: int
    """Volatility of the clash, per mille (Step 4)."""
    reliability: int
    """Reliability shown on the panel: how little the draw can move the odds."""
    resolve_attacker: int
    """The lead's resolve [CB-700]."""
    resolve_defender: int
    """The defender's resolve [CB-700]."""
    s: int
    """The swing of this draw, per mille (Step 5)."""
    a_eff: int
    """A after the swing."""
    d_eff: int
    """D after the swing."""
    share_a: int
    """The attacker's share of the effective power, per mille."""
    share_d: int
    """The defender's share, per mille."""
    ld: Count
    """Ld, the defender's loss (Step 6)."""
    la: Count
    """La, the lead's loss (Step 6)."""
    flank_shock: int
    """The flank term of the defender's shock [CB-970]."""
    stance_shock_to_defender: int
    """The Stance shock the lead deals [CB-1520]."""
    stance_shock_to_attacker: int
    """The Stance shock the defender deals [CB-1520]."""
    works_shock: int
    """The works shock dealt to the attacker [CB-990]."""
    shock_defender: int
    """The defender's shock (Step 7), against its resolve."""
    shock_attacker: int
    """The lead's shock, against its resolve."""
    defender_breaks: bool
    """The defender's shock reached its resolve [CB-1010]."""
    attacker_falters: bool
    """The lead faltered [CB-1150]."""
    fate: DefenderFate
    """What became of the defender [CB-1040]."""
    carried_over: Count
    """Loss passed on to the rest of the stack (bombardment floor) [CB-920, CB-1730]."""
    tile_cleared: bool
    """The defenders left the tile or died [CB-1060]."""
    lead_may_advance: bool
    """The rules let the lead move into the tile [CB-1060, CB-1080]."""
    lead_barred: bool
    """The lead may not initiate again this turn [CB-1150]."""
    after: After
    """Everyone's state afterwards."""
    combat_logic_version: int
    """The combat logic version that resolved it."""


class RecordHeader(BaseModel):
    """The first line of a game record."""

    model_config = _CONFIG

    format: Literal["fairfight-clash-game/1"]
    """The record format."""
    combat_logic_version: int
    """The combat logic version the game was played under."""
    ai_players: list[str]
    """The players the AI orders."""
    scenario: Scenario
    """The scenario the game started from."""


class Event(BaseModel):
    """One canonical event of a turn; its other fields depend on its kind (docs/clash.md)."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True)

    event: Literal[EVENT_KINDS]  # type: ignore[valid-type]
    """The kind of event."""


class RecordTurn(BaseModel):
    """One line per turn played: its orders and its events."""

    model_config = _CONFIG

    turn: Annotated[int, Field(ge=1)]
    """The turn played."""
    orders: TurnOrders
    """Every player's orders of the turn, merged."""
    events: list[Event]
    """The turn's events, from `turn` (with the state digest) to `end`."""


def _with_header(schema: dict[str, Any], title: str) -> dict[str, Any]:
    return {"$schema": DRAFT, "title": title, **schema}


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a scenario, the orders of a turn, a record line or an outcome."""
    if kind == "scenario":
        return scenario_schema()
    if kind == "orders":
        return _with_header(TurnOrders.model_json_schema(by_alias=True),
                            "fairfight clash orders of a turn")
    if kind == "outcome":
        return _with_header(OutcomeModel.model_json_schema(by_alias=True),
                            "fairfight clash outcome")
    if kind == "record":
        header = RecordHeader.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
        turn = RecordTurn.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
        definitions = {**header.pop("$defs", {}), **turn.pop("$defs", {}),
                       "RecordHeader": header, "RecordTurn": turn}
        return {"$schema": DRAFT, "title": f"fairfight clash game record ({RECORD_FORMAT})",
                "description": "One line of a record (JSON Lines): the first line is a "
                               "RecordHeader, every other line a RecordTurn.",
                "anyOf": [{"$ref": "#/$defs/RecordHeader"}, {"$ref": "#/$defs/RecordTurn"}],
                "$defs": definitions}
    raise ValueError(f"kind must be one of {', '.join(SCHEMA_KINDS)}")
