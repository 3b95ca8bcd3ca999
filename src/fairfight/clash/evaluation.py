"""From a specification to its attack panel: the one path of the command line and the web.

`evaluate` previews the clash (under fog when asked), resolves it at a draw when one is
given, and builds the panel with the reconciliation; the callers only render the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.clash.exchange import Outcome, check_draw, resolve_exchange
from fairfight.clash.fog import FogPreview, FogRequest
from fairfight.clash.panel import BoardContext, attack_panel
from fairfight.clash.panel_model import AttackPanel, Evaluation
from fairfight.clash.preview import Preview, preview
from fairfight.clash.spec import ClashSpec, check_resolvable

__all__ = ["Evaluated", "evaluate"]


@dataclass(frozen=True, slots=True)
class Evaluated:
    """A clash evaluated: its preview, the fog part, the resolution (if any) and the panel."""

    preview: Preview
    fog: FogPreview | None
    outcome: Outcome | None
    panel: AttackPanel

    def evaluation(self) -> Evaluation:
        """The JSON twin: the panel and the combat event."""
        return Evaluation(panel=self.panel,
                          outcome=self.outcome.to_json() if self.outcome else None)


def evaluate(spec: ClashSpec, fog: FogRequest | None = None, *, capture_possible: bool = False,
             defender_in_city: bool | None = None, where: BoardContext | None = None,
             r: int | None = None) -> Evaluated:
    """The attack panel of a clash; with a draw, also its resolution and reconciliation.

    `capture_possible` and `defender_in_city` are the board's facts, as for `preview` and
    `resolve_exchange`; `where` gives the board's names.
    """
    check_resolvable(spec)
    view = preview(spec, capture_possible=capture_possible, defender_in_city=defender_in_city)
    under_fog = fog.preview(spec, capture_possible=capture_possible,
                            defender_in_city=defender_in_city) if fog else None
    outcome = None if r is None else resolve_exchange(spec, check_draw(r),
                                                      defender_in_city=defender_in_city)
    return Evaluated(view, under_fog, outcome, attack_panel(view, under_fog, where, outcome))
