"""What an episode shows [§11]: the fighters, each side's factors, the odds line, the rounds.

Every number printed here is read from a history entry (or an odds preview) the engine made;
this module only formats. Percentages are the one place a float appears, for display.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fairfight.conquest.rules.tables import (
    BASIS_POINTS,
    CATEGORIES,
    DRAW_ROLES,
    POOL_CAP,
    POWER_SCALE,
    RATING_WEIGHTS,
    ROUND_BITS,
    ROUND_SCALE,
    ROUNDS_TO_WIN,
    UPSET_BELOW,
    BattleKind,
    Reason,
)
from fairfight.core.draws import DRAW_RANGE

__all__ = [
    "EpisodeView",
    "SIDE_ROWS",
    "champion_line",
    "contribution_line",
    "defender_rounds",
    "draw_permille",
    "draw_used",
    "episode_view",
    "fighter",
    "headline",
    "morale_text",
    "multiplier",
    "percent",
    "power_text",
    "render_episode",
    "render_markdown",
    "render_odds",
    "round_check",
    "round_draw",
    "running_score",
    "secured_line",
    "secured_role",
    "winner_chance",
]

_WEIGHT_TOTAL = sum(RATING_WEIGHTS.values())


def percent(value: Fraction | str, digits: int = 2) -> str:
    """A chance as a percentage for display, e.g. `Fraction(1, 3)` -> `33.33%`."""
    return f"{float(Fraction(value)) * 100:.{digits}f}%"


def multiplier(value: Fraction) -> str:
    """A factor as a page prints it: Fraction(28, 25) -> `×1.12`."""
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return f"×{text}"


def round_draw(value: int) -> str:
    """A saved draw as the uniform number u = x / 2**64, to 4 decimals."""
    return f"{value / DRAW_RANGE:.4f}"


def morale_text(basis_points: int) -> str:
    """Morale in basis points as a signed percentage: 200 -> `+2.00%`."""
    return f"{basis_points * 100 / BASIS_POINTS:+.2f}%"


def power_text(power: int) -> str:
    """Population power (millionths) for display: 406840000 -> `406.84`."""
    return f"{power / POWER_SCALE:,.2f}"


def defender_rounds(entry: dict[str, Any]) -> int:
    """The rounds the defender won: every round of the entry the attacker did not [§5]."""
    return len(entry["rounds"]) - int(entry["attacker_rounds"])


def running_score(entry: dict[str, Any]) -> list[tuple[int, int, bool]]:
    """The rounds each side has won after each round, in order, as (attacker, defender,
    settled): settled from the round that gives one side its third win on. All five rounds
    are drawn whatever the score [§2], so a show can tell the rounds that still count from
    the ones played out after the battle is settled."""
    attacker = defender = 0
    score = []
    for shown in entry["rounds"]:
        if shown["winner"] == "attacker":
            attacker += 1
        else:
            defender += 1
        score.append((attacker, defender, max(attacker, defender) >= ROUNDS_TO_WIN))
    return score


def draw_permille(value: int) -> int:
    """Where a saved draw falls on a round's chance bar: u = x / 2**64 in whole per-mille,
    rounded down (exact integers)."""
    return value * 1000 // DRAW_RANGE


def secured_role(entry: dict[str, Any]) -> str | None:
    """Whose full pool secured the battle, `attacker` or `defender` (None: nobody's) [§6].

    A secured battle's chance after fan power is 1 for the attacker or 0 (the defender's win).
    """
    if not entry["secured"]:
        return None
    return "attacker" if Fraction(entry["battle_chance"]["after"]) == 1 else "defender"


def secured_line(faction: str) -> str:
    """The sentence that says a full pool secured the battle [§6]."""
    return f"SECURED by {faction}'s full ${POOL_CAP} pool."


def round_check(shown: dict[str, Any], value: int) -> str:
    """The check that decided a round: the draw's top bits against the threshold Q of the
    round's chance after fan power (the attacker wins when they are below it) [§5]."""
    chance = Fraction(shown["after"])
    q = chance.numerator * (ROUND_SCALE // chance.denominator)
    high = value >> ROUND_BITS
    won = shown["winner"] == "attacker"
    return (f"x>>{ROUND_BITS} = {high:,} {'<' if won else '≥'} Q = {q:,}: "
            f"{'attacker' if won else 'defender'} wins the round")


def draw_used(entry: dict[str, Any], position: int) -> bool:
    """Whether the entry's draw at `position` (0 to 7) decided anything: a rebellion has no
    pick of fighters or border, so it leaves the draws before the rounds unused [§2]."""
    rebellion = entry["kind"] == BattleKind.BONUS
    return not (rebellion and position < len(DRAW_ROLES) - len(CATEGORIES))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _factor(text: str) -> str:
    value = Fraction(text)
    return "-" if value == 1 else f"x{float(value):.4g}"


SIDE_ROWS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("faction", lambda s: f"{s['faction']} ({s['type']})"),
    ("special", lambda s: f"{s['special']} ({'on' if s['special_active'] else 'off'})"),
    ("people", lambda s: f"{s['people']:,}"),
    ("population power", lambda s: power_text(s["power"])),
    ("weighted rating", lambda s: f"{s['weighted_rating'] / _WEIGHT_TOTAL:.2f}"),
    ("home", lambda s: _factor(s["home"])),
    ("sea", lambda s: _factor(s["sea"])),
    ("counter", lambda s: _factor(s["counter"])),
    ("morale", lambda s: morale_text(s["morale_bp"])),
    ("fan", lambda s: _factor(s["fan"]) + (f" (${s['pool']})" if s["pool"] else "")),
)
"""The strength rows of an episode, one function per row, shared by text and Markdown."""


@dataclass(frozen=True, slots=True)
class EpisodeView:
    """An episode laid out as rows of text, ready for any format."""

    title: str
    notes: list[str]
    sides: list[tuple[str, str, str]]
    odds: str
    rounds: list[tuple[str, list[str]]]
    result: list[str]


def _odds_line(chance: dict[str, str], secured: str | None, clash: bool) -> str:
    line = f"battle chance before {percent(chance['before'])}, after {percent(chance['after'])}"
    if secured:
        line += f"; SECURED by the {secured}'s full pool"
    if clash:
        line += "; FAN CLASH"
    return line


def _side_rows(sides: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(label, show(sides["attacker"]), show(sides["defender"])) for label, show in SIDE_ROWS]


def fighter(code: str, names: Mapping[str, str] | None = None) -> str:
    """A faction as a heading names it: `Texas (US-TX)`, or the code alone without names."""
    name = (names or {}).get(code)
    return f"{name} ({code})" if name and name != code else code


def champion_line(code: str, names: Mapping[str, str] | None, holdings: int,
                  battles: int) -> str:
    """The season's end, in words: who won the title and with how much."""
    held = f"{holdings} region" + ("" if holdings == 1 else "s")
    return f"{fighter(code, names)} is the champion: {held} held when the season ended " \
        f"after {_count(battles, 'battle')}."


def contribution_line(entry: Mapping[str, Any], names: Mapping[str, str] | None) -> str:
    """A recorded contribution, in words: the amount, the faction, the battle it counts for."""
    return (f"${entry['amount']} for {fighter(str(entry['faction']), names)}, counted in "
            f"battle {entry['before_battle']} (ledger entry {entry['seq']})")


def episode_view(entry: dict[str, Any], names: Mapping[str, str] | None = None) -> EpisodeView:
    """Everything one history entry shows [§11], as rows of text; with `names` (code to
    name) the title names the fighters as well as their codes."""
    number = entry["number"]
    attacker, defender = fighter(entry["attacker"], names), fighter(entry["defender"], names)
    if entry["kind"] == BattleKind.BONUS:
        title = f"Battle {number}: REBELLION in {attacker} against its occupier {defender}"
        notes = ["a bonus round on home soil: a land fight, no pools, rebels at morale 0"]
    else:
        border, candidates = entry["border"], entry["candidates"]
        remote = " (remote link)" if border["remote"] else ""
        title = f"Battle {number}: {attacker} attacks {defender}"
        notes = [
            f"across the {border['kind']} border {border['a']} / {border['b']}{remote}; "
            "picked from "
            + ", ".join(
                _count(candidates[k], k[:-1]) for k in ("attackers", "defenders", "borders")
            )
        ]
    secured = secured_role(entry)
    draws = {d["index"]: d["value"] for d in entry["draws"]}
    rounds = entry["rounds"]
    round_rows = [
        ("round", [r["category"] for r in rounds]),
        ("chance before", [percent(r["before"]) for r in rounds]),
        ("chance after", [percent(r["after"]) for r in rounds]),
        ("draw u", [round_draw(draws[r["draw_index"]]) for r in rounds]),
        ("won by", [r["winner"] for r in rounds]),
    ]
    result = [_result(entry)]
    if entry["changed_hands"]:
        result.append(f"changed hands: {', '.join(entry['changed_hands'])} -> {entry['winner']}")
    morale = entry["morale_after"]
    result.append(
        f"morale after: {attacker} {morale_text(morale['attacker'])}, "
        f"{defender} {morale_text(morale['defender'])}"
    )
    if entry["pools_spent"]:
        spent = ", ".join(f"{code} ${amount}" for code, amount in entry["pools_spent"].items())
        result.append(f"pools spent: {spent}")
    if entry["season_over"]:
        result.append("SEASON OVER")
    return EpisodeView(
        title=title,
        notes=notes,
        sides=_side_rows(entry["sides"]),
        odds=_odds_line(entry["battle_chance"], secured, entry["reason"] == Reason.FAN_CLASH),
        rounds=round_rows,
        result=result,
    )


def _text(view: EpisodeView) -> str:
    lines = [view.title, *(f"  {note}" for note in view.notes)]
    lines.append(f"  {'':<18}{'attacker':<26}defender")
    lines += [f"  {label:<18}{a:<26}{d}" for label, a, d in view.sides]
    lines.append(f"  {view.odds}")
    lines += [f"  {label:<18}" + "".join(f"{c:<10}" for c in cells) for label, cells in view.rounds]
    lines += [f"  {line}" for line in view.result]
    return "\n".join(line.rstrip() for line in lines)


def _markdown(view: EpisodeView) -> str:
    lines = [f"### {view.title}", "", *view.notes, ""]
    lines += ["| | attacker | defender |", "|---|---|---|"]
    lines += [f"| {label} | {a} | {d} |" for label, a, d in view.sides]
    lines += ["", f"**{view.odds}**", ""]
    (head, categories), *rows = view.rounds
    lines.append(f"| {head} | " + " | ".join(categories) + " |")
    lines.append("|---" * (len(categories) + 1) + "|")
    lines += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows]
    lines += ["", *(f"* {line}" for line in view.result)]
    return "\n".join(lines) + "\n"


def render_episode(entry: dict[str, Any]) -> str:
    """The full episode of one history entry, as plain text."""
    return _text(episode_view(entry))


def render_markdown(entry: dict[str, Any]) -> str:
    """The full episode of one history entry, as Markdown (tables for the sides and rounds)."""
    return _markdown(episode_view(entry))


def _result(entry: dict[str, Any]) -> str:
    natural = f"rounds {entry['attacker_rounds']}-{defender_rounds(entry)} for the attacker"
    text = f"RESULT: {entry['winner']} wins ({natural}; reason {entry['reason']})"
    if entry["reason"] == Reason.FAN_POWER:
        text += f"; the draws favoured {entry['natural_winner']}"
    if entry["upset"]:
        text += f"  UPSET (won at under {percent(UPSET_BELOW, 0)})"
    if entry["absorbed"]:
        text += f"; {entry['absorbed']} is absorbed"
    if entry["restored"]:
        text += f"; {entry['restored']} is free again"
    return text


def winner_chance(entry: dict[str, Any]) -> Fraction:
    """The winner's battle chance after fan power (the attacker's, or its complement)."""
    chance = Fraction(entry["battle_chance"]["after"])
    return chance if entry["winner"] == entry["attacker"] else 1 - chance


def headline(entry: dict[str, Any]) -> str:
    """One line for highlights: who beat whom, and what made it notable."""
    tags = [
        tag
        for tag, on in (
            ("UPSET", entry["upset"]),
            (str(entry["reason"]), entry["reason"] != Reason.NATURAL),
            ("REBELLION", entry["kind"] == BattleKind.BONUS),
        )
        if on
    ]
    return (
        f"#{entry['number']:>3} {entry['winner']} beat {entry['loser']} "
        f"at {percent(winner_chance(entry))}" + (f"  [{' '.join(tags)}]" if tags else "")
    )


def render_odds(preview: dict[str, Any]) -> str:
    """An odds preview (a battle that has not been drawn) as plain text."""
    sides, rounds = preview["sides"], preview["rounds"]
    view = EpisodeView(
        title=f"Odds if {sides['attacker']['faction']} attacked {sides['defender']['faction']} "
        f"across a {preview['border_kind']} border in battle {preview['battle']}",
        notes=[],
        sides=_side_rows(sides),
        odds=_odds_line(preview["battle_chance"], preview["secured"], preview["fan_clash"]),
        rounds=[
            ("round", [r["category"] for r in rounds]),
            ("chance before", [percent(r["before"]) for r in rounds]),
            ("chance after", [percent(r["after"]) for r in rounds]),
        ],
        result=[],
    )
    return _text(view)
