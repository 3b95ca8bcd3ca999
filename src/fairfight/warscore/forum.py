"""Forum posts in the source's "Structure" layout, as plain text or BBCode.

A post is built once as a small tree of lines and then written out either as the flat dash list
the source shows, or as nested BBCode lists ready to paste into a forum.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fairfight.warscore.score import ArmyScore, BattleResult, Factor, Side, shown
from fairfight.warscore.tables import BattleKind
from fairfight.warscore.war import NwsScore, UnscoredBattle, WarReport

NAVAL_NOTE = "Naval battle: the naval rules are fairfight's own (the source gives none)."


class PostFormat(StrEnum):
    """How a post is written out."""

    TEXT = "text"
    """The flat dash list of the source."""
    BBCODE = "bbcode"
    """Nested BBCode lists for a forum."""


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a post and the lines nested under it."""

    text: str
    children: tuple[Line, ...] = ()
    heading: bool = False


def _factor(name: str, factor: Factor) -> Line:
    notes = f" ({', '.join(factor.notes)})" if factor.notes else ""
    return Line(f"{name}: {shown(factor.value)}{notes}")


def _army_lines(role: str, army: ArmyScore) -> Line:
    total = army.total()
    total_text = "N/A (breaks before the battle)" if total is None else shown(total)
    defensives = (
        Line("Defensives: N/A") if army.defensives is None
        else _factor("Defensives", army.defensives)
    )
    return Line(
        f"{role}-{army.nation}",
        (
            Line(f"Total: {total_text}"),
            Line(f"Troops: {shown(army.troops)} ({army.troops_count:,})"),
            _factor("Support", army.support),
            _factor("Morale", army.morale),
            defensives,
            _factor("Technology", army.technology),
        ),
    )


def result_line(result: BattleResult) -> str:
    """`156% Operational Victory for Gondor: Mordor ...` (no percent when none is defined)."""
    if result.percent is None:
        return result.outcome()
    return f"{result.percent}% {result.outcome()}"


def battle_lines(result: BattleResult) -> Line:
    """A battle in the source's Structure: name (year), attacker, defender, result."""
    children = [
        _army_lines("Attacker", result.army(Side.ATTACKER)),
        _army_lines("Defender", result.army(Side.DEFENDER)),
        Line(f"Result: {result_line(result)}"),
    ]
    if result.kind is BattleKind.NAVAL:
        children.append(Line(f"Note: {NAVAL_NOTE}"))
    return Line(f"{result.battle} ({result.year})", tuple(children))


def nws_lines(score: NwsScore) -> Line:
    """A nation's NWS in the source's Structure: nation (year), total, eight categories."""
    children = [Line(f"Total: {score.total()}")]
    children += [Line(f"{name}: {row.value} ({row.label})") for name, row in score.parts]
    plural = "front" if score.fronts == 1 else "fronts"
    children.append(Line(f"Fronts: {score.fronts_points()} ({score.fronts} {plural})"))
    if score.sues_for_peace():
        children.append(Line("Status: must sue for peace or face a popular revolt"))
    if score.capitulates():
        children.append(Line("Status: capitulates; its war is over"))
    return Line(f"{score.nation} ({score.year})", tuple(children))


def unscored_lines(battle: UnscoredBattle) -> Line:
    """A listed battle that is not fought."""
    return Line(f"{battle.battle} ({battle.year}): not scored, {battle.reason}")


def _text(line: Line) -> list[str]:
    if line.heading:
        return [line.text]
    out = [f"- {line.text}"]
    for child in line.children:
        out += _text(child)
    return out


def _bbcode(line: Line, top: bool = True) -> list[str]:
    if line.heading:
        return [f"[size=150][b]{line.text}[/b][/size]"]
    if not line.children:
        return [line.text if top else f"[*]{line.text}"]
    head = f"[b]{line.text}[/b]" if top else f"[*][b]{line.text}[/b]"
    out = [head, "[list]"]
    for child in line.children:
        out += _bbcode(child, top=False)
    return [*out, "[/list]"]


def render(blocks: list[Line], fmt: PostFormat) -> str:
    """Write blocks out, separated by blank lines."""
    writer = _text if fmt is PostFormat.TEXT else _bbcode
    return "\n\n".join("\n".join(writer(block)) for block in blocks) + "\n"


def battle_post(result: BattleResult, fmt: PostFormat = PostFormat.TEXT) -> str:
    """The forum post of one battle."""
    return render([battle_lines(result)], fmt)


def war_post(report: WarReport, fmt: PostFormat = PostFormat.TEXT) -> str:
    """The forum posts of a war: per year, each nation's NWS and each battle."""
    blocks = [Line(report.war, heading=True)]
    for year in report.years:
        blocks.append(Line(f"Year {year.year}", heading=True))
        if not year.nws:
            blocks.append(Line("No National War Score: the war is already over"))
        blocks += [nws_lines(score) for score in year.nws]
        for battle in year.battles:
            if isinstance(battle, UnscoredBattle):
                blocks.append(unscored_lines(battle))
            else:
                blocks.append(battle_lines(battle))
    for nation, when in report.capitulations:
        blocks.append(Line(f"{nation} capitulated in {when}."))
    ended = report.ended_in()
    if ended is not None:
        blocks.append(Line(f"The war ended in {ended}; later battles are not scored."))
    return render(blocks, fmt)


__all__ = [
    "Line",
    "NAVAL_NOTE",
    "PostFormat",
    "battle_lines",
    "battle_post",
    "nws_lines",
    "render",
    "result_line",
    "unscored_lines",
    "war_post",
]
