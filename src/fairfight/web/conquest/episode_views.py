"""The episode page's view: both sides' cards, the odds bar before and after the fan boost,
the five rounds with the check that decided each, and the eight saved draws."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fairfight.conquest.rules import episodes, tables
from fairfight.conquest.rules_page import docs_by_value
from fairfight.web.conquest.catalog import Snapshot
from fairfight.web.conquest.models import DrawView, EpisodeView, OddsView, RoundView, SideView
from fairfight.web.conquest.views import banners, champion_text, names, permille

__all__ = ["episode"]

_REASONS = docs_by_value(tables.Reason)
_CATEGORIES = docs_by_value(tables.Category)


def _side(snap: Snapshot, role: str, side: dict[str, Any]) -> SideView:
    return SideView(
        role="attacker" if role == "attacker" else "defender",
        faction=side["faction"],
        name=snap.name_of(side["faction"]),
        type=side["type"],
        special=side["special"],
        special_active=side["special_active"],
        people=side["people"],
        power=side["power"],
        power_text=episodes.power_text(side["power"]),
        weighted_rating=side["weighted_rating"],
        weighted_rating_text=episodes.SIDE_ROWS[4][1](side),
        home=side["home"],
        sea=side["sea"],
        counter=side["counter"],
        morale_bp=side["morale_bp"],
        morale_text=episodes.morale_text(side["morale_bp"]),
        fan=side["fan"],
        pool=side["pool"],
        rows=[(label, show(side)) for label, show in episodes.SIDE_ROWS],
    )


def _said(snap: Snapshot, entry: dict[str, Any], shown: dict[str, Any], number: int,
          score: tuple[int, int, bool], first_settled: bool) -> str:
    """One round in words, for the screen reader's announcement in watch mode."""
    att, dfn = snap.name_of(entry["attacker"]), snap.name_of(entry["defender"])
    won = att if shown["winner"] == "attacker" else dfn
    text = (f"Round {number} of {len(entry['rounds'])}, {_CATEGORIES[shown['category']]}: "
            f"{won} wins the round. {att} {score[0]}, {dfn} {score[1]}.")
    if first_settled:
        text += f" {won} has {tables.ROUNDS_TO_WIN} round wins."
    elif score[2]:
        text += " Played out: the rounds were already settled."
    return text


def _rounds(snap: Snapshot, entry: dict[str, Any]) -> list[RoundView]:
    draws = {d["index"]: d["value"] for d in entry["draws"]}
    scores = episodes.running_score(entry)
    settled_before = [False, *(s[2] for s in scores)]
    return [
        RoundView(
            category=shown["category"],
            before=shown["before"],
            after=shown["after"],
            before_text=episodes.percent(shown["before"]),
            after_text=episodes.percent(shown["after"]),
            draw_index=shown["draw_index"],
            u_text=episodes.round_draw(draws[shown["draw_index"]]),
            winner=shown["winner"],
            winner_faction=entry[shown["winner"]],
            check=episodes.round_check(shown, draws[shown["draw_index"]]),
            number=i + 1,
            category_text=_CATEGORIES[shown["category"]],
            score=scores[i][:2],
            settled=scores[i][2],
            chance_permille=permille(Fraction(shown["after"])),
            u_permille=episodes.draw_permille(draws[shown["draw_index"]]),
            said=_said(snap, entry, shown, i + 1, scores[i],
                       scores[i][2] and not settled_before[i]),
        )
        for i, shown in enumerate(entry["rounds"])
    ]


def _odds(entry: dict[str, Any]) -> OddsView:
    before = Fraction(entry["battle_chance"]["before"])
    after = Fraction(entry["battle_chance"]["after"])
    role = episodes.secured_role(entry)
    secured = None if role is None else entry[role]
    return OddsView(
        before=entry["battle_chance"]["before"],
        after=entry["battle_chance"]["after"],
        before_text=episodes.percent(before),
        after_text=episodes.percent(after),
        before_permille=permille(before),
        after_permille=permille(after),
        secured_by=secured,
        secured_text=None if secured is None else episodes.secured_line(secured),
        fan_clash=entry["reason"] == tables.Reason.FAN_CLASH,
    )


def episode(snap: Snapshot, number: int) -> EpisodeView:
    """One battle's episode (kept for the battles fought, all it reads)."""
    view: EpisodeView = snap.fought.get_or_make(f"episode:{number}",
                                                lambda: _episode(snap, number))
    return view


def _episode(snap: Snapshot, number: int) -> EpisodeView:
    entry = snap.history[number - 1]
    text = episodes.episode_view(entry, names(snap))
    morale = entry["morale_after"]
    return EpisodeView(
        season=snap.season_id,
        number=number,
        kind=entry["kind"],
        title=text.title,
        notes=text.notes,
        attacker=_side(snap, "attacker", entry["sides"]["attacker"]),
        defender=_side(snap, "defender", entry["sides"]["defender"]),
        odds=_odds(entry),
        rounds=_rounds(snap, entry),
        draws=[
            DrawView(
                index=draw["index"],
                role=tables.DRAW_ROLES[i],
                value=draw["value"],
                u_text=episodes.round_draw(draw["value"]),
                used=episodes.draw_used(entry, i),
            )
            for i, draw in enumerate(entry["draws"])
        ],
        attacker_rounds=entry["attacker_rounds"],
        defender_rounds=episodes.defender_rounds(entry),
        natural_winner=entry["natural_winner"],
        winner=entry["winner"],
        loser=entry["loser"],
        reason=entry["reason"],
        reason_text=_REASONS.get(entry["reason"], ""),
        upset=entry["upset"],
        banners=banners(entry),
        result=text.result[0],
        changed_hands=entry["changed_hands"],
        pools_spent=entry["pools_spent"],
        morale_after={entry[role]: value for role, value in morale.items()},
        morale_after_text={entry[role]: episodes.morale_text(v) for role, v in morale.items()},
        season_over=entry["season_over"],
        champion_text=champion_text(snap) if entry["season_over"] else None,
        winner_name=snap.name_of(entry["winner"]),
        previous=number - 1 if number > 1 else None,
        next=number + 1 if number < len(snap.history) else None,
    )
