"""The clash ruleset: deterministic integer combat with an exact preview.

One exchange per clash decides losses and, separately, whether a side breaks; the preview
runs the same kernel and reports exact per-mille chances.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
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
    from fairfight.clash.exchange import (
        DefenderFate,
        Outcome,
        TurnXp,
        UnitResult,
        allocate_losses,
        resolve_exchange,
    )
    from fairfight.clash.fog import FogField, FogPreview, Pivot, preview_under_fog
    from fairfight.clash.preview import Band, Preview, preview
    from fairfight.clash.readout import render_panel
    from fairfight.clash.rules import rules_page
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

__all__ = [
    "Band",
    "BatchPreview",
    "COMBAT_LOGIC_VERSION",
    "ClashSpec",
    "Combatant",
    "DefenderFate",
    "Disengagement",
    "FogField",
    "FogPreview",
    "Grade",
    "Kind",
    "Outcome",
    "Pivot",
    "Preview",
    "Recovery",
    "RecoverySituation",
    "RetreatClass",
    "Role",
    "Stance",
    "SupplyTier",
    "Terrain",
    "TurnXp",
    "UnitResult",
    "allocate_losses",
    "caught",
    "check_resolvable",
    "columns_from_specs",
    "disengage",
    "draw_r",
    "parse_spec",
    "preview",
    "preview_batch",
    "preview_under_fog",
    "recover",
    "recovery_rates",
    "render_panel",
    "resolve_exchange",
    "rules_page",
]

__getattr__ = lazy_exports(__name__, __all__, (
    "aftermath",
    "batch",
    "draws",
    "exchange",
    "fog",
    "preview",
    "readout",
    "rules",
    "spec",
    "tables",
))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
