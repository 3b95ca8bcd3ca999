"""The clash ruleset: deterministic integer combat with an exact preview.

One exchange per clash decides losses and, separately, whether a side breaks; the preview
runs the same kernel and reports exact per-mille chances.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.clash.activation import Activation, AssaultRisk, activation_order, assault_risks
    from fairfight.clash.aftermath import (
        Disengagement,
        Recovery,
        caught,
        disengage,
        recover,
        recovery_rates,
    )
    from fairfight.clash.batch import BatchPreview, columns_from_specs, preview_batch
    from fairfight.clash.draws import draw_r
    from fairfight.clash.evaluation import Evaluated, evaluate
    from fairfight.clash.exchange import (
        DefenderFate,
        Outcome,
        TurnXp,
        UnitResult,
        allocate_losses,
        resolve_exchange,
    )
    from fairfight.clash.fog import FogField, FogPreview, FogRequest, Pivot, preview_under_fog
    from fairfight.clash.kernel import Columns
    from fairfight.clash.orders import TurnOrders, UnitOrders, parse_orders
    from fairfight.clash.panel import attack_panel
    from fairfight.clash.panel_model import AttackPanel
    from fairfight.clash.plan_odds import PlanOdds, plan_odds
    from fairfight.clash.preview import Band, Preview, preview
    from fairfight.clash.readout import format_panel, render_panel
    from fairfight.clash.rules_page import rules_page
    from fairfight.clash.scenario import Scenario, parse_scenario
    from fairfight.clash.schemas import json_schema
    from fairfight.clash.spec import ClashSpec, Combatant, check_resolvable, parse_spec
    from fairfight.clash.tables import (
        COMBAT_LOGIC_VERSION,
        Grade,
        Kind,
        RecoverySituation,
        RetreatClass,
        Role,
        Stance,
        SupplyTier,
        Terrain,
    )
    from fairfight.clash.threat import Threat, threats
    from fairfight.clash.turn import TurnResult, run_turn
    from fairfight.clash.world import World, world_from_scenario

__all__ = [
    "Activation",
    "AssaultRisk",
    "AttackPanel",
    "Band",
    "BatchPreview",
    "COMBAT_LOGIC_VERSION",
    "ClashSpec",
    "Columns",
    "Combatant",
    "DefenderFate",
    "Disengagement",
    "Evaluated",
    "FogField",
    "FogPreview",
    "FogRequest",
    "Grade",
    "Kind",
    "Outcome",
    "Pivot",
    "PlanOdds",
    "Preview",
    "Recovery",
    "RecoverySituation",
    "RetreatClass",
    "Role",
    "Scenario",
    "Stance",
    "SupplyTier",
    "Terrain",
    "Threat",
    "TurnOrders",
    "TurnResult",
    "TurnXp",
    "UnitOrders",
    "UnitResult",
    "World",
    "activation_order",
    "allocate_losses",
    "assault_risks",
    "attack_panel",
    "caught",
    "check_resolvable",
    "columns_from_specs",
    "disengage",
    "draw_r",
    "evaluate",
    "format_panel",
    "json_schema",
    "parse_orders",
    "parse_scenario",
    "parse_spec",
    "plan_odds",
    "preview",
    "preview_batch",
    "preview_under_fog",
    "recover",
    "recovery_rates",
    "render_panel",
    "resolve_exchange",
    "rules_page",
    "run_turn",
    "threats",
    "world_from_scenario",
]

__getattr__ = lazy_exports(__name__, __all__, (
    "activation",
    "aftermath",
    "batch",
    "draws",
    "exchange",
    "fog",
    "kernel",
    "orders",
    "preview",
    "readout",
    "evaluation",
    "panel",
    "panel_model",
    "plan_odds",
    "rules_page",
    "scenario",
    "schemas",
    "spec",
    "tables",
    "threat",
    "turn",
    "world",
))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
