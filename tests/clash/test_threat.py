"""The threat view against a board built by hand, its answer worked out by hand below.

The board, seven tiles by three, all open ground, no rivers, no works, no depots:

    y0  .  .  .  .  T  .  .        T  red tank (Armoured Battalion), seq 4, truth 90 strength
    y1  G  R  .  r  .  .  .        G  blue gun (Field Battery) at (0,1), seq 2
    y2  .  .  .  s  .  .  .        R  blue rifles at (1,1), strength 90, Trained, seq 1
                                   r  red rifles at (3,1), truth 70 strength, seq 3
                                   s  red scouts at (3,2), truth 50 strength, seq 5

What blue knows (contact range 2, adjacent observed): the red rifles (3,1) and the red
scouts (3,2) are two tiles from the blue rifles: in contact (L1), so their strength,
disorder, Stance, dig-in, grade and supply are the view's estimates (100, 0, Hold, 0,
Trained, Adequate). The tank at (4,0) is three tiles from the rifles and four from the gun:
unseen, so it is absent although in truth it could reach the rifles (two steps to (2,0)
and its third point to assault) and would be the worst threat there.

Reach (one point a step, the last point kept for the assault): red rifles move 2, so one
step: (2,0), (2,1), (2,2) touch the blue rifles; nothing next to the gun (the tiles beside
it, (0,0), (1,0), (0,2), (1,2), are two steps away and (1,1) is blue). The scouts move 4,
three steps: every tile around both blue units that is free.

Blue rifles: the rifles (atk 30, foot +50 in the open) outgun the scouts (atk 18, recon +100
in the open) at the same estimated strength 100, so the red rifles are the worst threat.
Every approach tile gives the same assault (open ground, no river, no height, no other red
unit next to (1,1), so no flanker and no supporter); the first in row-major order, (2,0),
is named. The assault as a specification, by hand: Rifle Company lead 100/0, Advance (the
Stance an attacker is assumed in), Trained, Adequate, seq 3; defender the blue rifles 90/0,
Hold, Trained, Full, seq 1; open ground; nothing else.

Blue gun: only the scouts reach it; the first free tile next to it in row-major order is
(0,0) (no other red unit is next to the gun, so no flanker). Scout Troop lead 100/0, Advance,
Trained, Adequate, seq 5; defender the Field Battery 100/0, Hold, Green, Full, seq 2.

The break chances are the exact preview of these hand-written specifications (the one
preview the threat view must reuse).
"""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.preview import preview
from fairfight.clash.spec import ClashSpec, Combatant
from fairfight.clash.threat import heat_band, threat_data, threats
from fairfight.clash.verdict import verdict_text

from .world_helpers import base_scenario, world_of

CAST = {cls.name: cls for cls in t.CALIBRATION_CAST}


def _unit(uid: str, player: str, cls: str, at: list[int], seq: int, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "player": player, "class": cls, "at": at, "seq": seq,
            "stance": "hold", "supply": "full", "grade": "green"} | extra


def _board() -> dict[str, Any]:
    rows = [". . . . . . ."] * 3
    return base_scenario(rows, [
        _unit("b-rifles", "blue", "rifle-company", [1, 1], 1, strength=90, grade="trained"),
        _unit("b-gun", "blue", "field-battery", [0, 1], 2),
        _unit("r-rifles", "red", "rifle-company", [3, 1], 3, strength=70),
        _unit("r-tank", "red", "armoured-battalion", [4, 0], 4, strength=90),
        _unit("r-scouts", "red", "scout-troop", [3, 2], 5, strength=50),
    ])


def _combatant(name: str, strength: int, disorder: int, stance: t.Stance, grade: t.Grade,
               supply: t.SupplyTier, seq: int) -> Combatant:
    cls = CAST[name]
    return Combatant(atk=cls.atk, defence=cls.defence, tough=cls.tough, role=cls.role,
                     strength=strength, disorder=disorder, grade=grade, supply_tier=supply,
                     stance=stance, creation_sequence=seq)


def _assault(lead: Combatant, defender: Combatant) -> ClashSpec:
    return ClashSpec(kind=t.Kind.ASSAULT, terrain=t.Terrain.OPEN, lead=lead, defender=defender,
                     volatility_floor=250)


RED = (100, 0, t.Stance.ADVANCE, t.Grade.TRAINED, t.SupplyTier.ADEQUATE)
RIFLES_SPEC = _assault(_combatant("Rifle Company", *RED, 3),
                       _combatant("Rifle Company", 90, 0, t.Stance.HOLD, t.Grade.TRAINED,
                                  t.SupplyTier.FULL, 1))
SCOUTS_ON_RIFLES = _assault(_combatant("Scout Troop", *RED, 5), RIFLES_SPEC.defender)
SCOUTS_ON_GUN = _assault(_combatant("Scout Troop", *RED, 5),
                         _combatant("Field Battery", 100, 0, t.Stance.HOLD, t.Grade.GREEN,
                                    t.SupplyTier.FULL, 2))


def test_the_worst_visible_threat_to_each_unit_as_worked_out_by_hand() -> None:
    world = world_of(_board())
    found = {threat.unit: threat for threat in threats(world, "blue")}
    assert set(found) == {"b-rifles", "b-gun"}
    rifles, gun = found["b-rifles"], found["b-gun"]
    expected = preview(RIFLES_SPEC)
    assert preview(SCOUTS_ON_RIFLES).break_permille < expected.break_permille
    assert (rifles.enemy, rifles.approach, rifles.defender, rifles.supporters) == (
        "r-rifles", (2, 0), "b-rifles", ())
    assert (rifles.break_permille, rifles.falter_permille) == (
        expected.break_permille, expected.falter_permille)
    assert rifles.verdict == verdict_text(expected.break_permille)
    assert rifles.provisional
    on_gun = preview(SCOUTS_ON_GUN)
    assert (gun.enemy, gun.approach, gun.break_permille) == (
        "r-scouts", (0, 0), on_gun.break_permille)
    assert gun.heat == heat_band(on_gun.break_permille)


def test_the_unseen_tank_is_never_counted() -> None:
    """In truth the tank reaches the rifles; the side does not know it, so neither does its
    threat view, and nothing in the answer names it."""
    data = threat_data(world_of(_board()), "blue")
    assert "r-tank" not in repr(data)


def test_water_keeps_a_visible_enemy_from_reaching() -> None:
    """The gun alone at (0,1), the red rifles two tiles off at (2,1) (in contact, seen):
    with water down column 1 their one step reaches no tile next to the gun, so nothing
    threatens it; on dry ground the same step reaches (1,0), (1,1) and (1,2), and the
    first of them in row-major order, (1,0), is named."""
    board = _board()
    board["units"] = [u for u in board["units"] if u["id"] in ("b-gun", "r-rifles")]
    board["units"][1]["at"] = [2, 1]
    dry = world_of(board)
    board["board"]["rows"] = [". ~ . . . . ."] * 3
    [gun] = threats(world_of(board), "blue")
    assert gun.enemy is None and gun.heat == "none" and gun.break_permille == 0
    [gun] = threats(dry, "blue")
    assert (gun.enemy, gun.approach) == ("r-rifles", (1, 0))
