"""The forms a person fills in at a ballot table, read back into the engine's decisions.

Every refusal names the form field it belongs to, so the page can show it beside that field
and keep what was typed.
"""

from __future__ import annotations

from typing import Any

from fairfight.ballot.advice import declaration_chance
from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.human import plain
from fairfight.ballot.state import (
    NO_CARD,
    AmendmentDraft,
    AmendmentVote,
    BillDraft,
    Decision,
    Declaration,
    Declarations,
    Discards,
    DraftPick,
    GameState,
    Phase,
    Withdrawals,
    YesNo,
)
from fairfight.ballot.tables import AmendmentChoice, Party
from fairfight.ballot.validation import check_decision
from fairfight.core.errors import InputError, RuleError
from fairfight.core.validation import is_plain_digits
from fairfight.web.ballot.seat_page import ChanceView, chance_view

__all__ = [
    "FORM_FIELDS",
    "PICK",
    "checked",
    "decision_from_form",
    "declaration_rows",
    "describe",
    "form_field",
]


def declaration_rows(state: GameState, seat: int) -> int:
    """Rows on the declare form: one for every card the seat could declare this year (each
    candidate card in hand, and each card on a seat it holds that comes up), so every
    declaration of a year fits in one form."""
    cards = build_cards(state.key)
    in_hand = sum(1 for card in state.hands[seat] if cards[card].is_candidate)
    up = set(game_map().races_in(state.year))
    held = sum(1 for i in up if state.seats[i].holder == seat)
    return max(1, in_hand + held)


def _int(form: dict[str, Any], name: str) -> int:
    text = str(form.get(name, "")).strip().lstrip("#")
    if not is_plain_digits(text):
        raise InputError(name, "choose a card or a number")
    return int(text)


PICK = "pick_"
"""The prefix of a race's field on the declare form: `pick_H-OH-3` = `87:R`, `87:R:190` (with
district card #190), or `none`."""


def _pick_value(name: str, value: str) -> tuple[int, str, int]:
    """(card, party, district card or NO_CARD) of an option's value `card:party[:district]`."""
    parts = value.split(":")
    district = parts[2] if len(parts) == 3 else str(NO_CARD)
    if (len(parts) not in (2, 3) or not is_plain_digits(parts[0]) or parts[1] not in ("D", "R")
            or not (district == str(NO_CARD) or is_plain_digits(district))):
        raise InputError(name, "choose one of the listed declarations", value)
    return int(parts[0]), parts[1], int(district)


def _picked(state: GameState, seat: int, form: dict[str, Any]) -> list[Declaration]:
    """The declarations chosen among the listed options: one field a race, `card:party`, with
    `:district` when a district card from the hand runs beside the card."""
    entries = []
    chosen: dict[int, str] = {}
    for name, value in form.items():
        if not name.startswith(PICK) or str(value) in ("", "none"):
            continue
        race = name[len(PICK):]
        if race not in game_map().seat_by_id:
            raise InputError(name, f"{race} is not a race of the map")
        card, party, district = _pick_value(name, str(value))
        if card in chosen:
            raise InputError(name, f"card #{card} is already chosen for {chosen[card]}")
        chosen[card] = race
        holding = state.seats[game_map().seat_by_id[race]]
        rerun = holding.holder == seat and holding.card == card
        entries.append(Declaration(seat, race, card, Party(party),
                                   holding.district_card if rerun else district))
    return entries


def _declarations(state: GameState, seat: int, form: dict[str, Any]) -> Declarations:
    entries = _picked(state, seat, form)
    first_row_of: dict[int, int] = {e.card: -1 for e in entries}
    for row in range(declaration_rows(state, seat)):
        race = str(form.get(f"race_{row}", "")).strip().upper()
        if not race:
            continue
        if race not in game_map().seat_by_id:
            raise InputError(f"race_{row}", f"{race} is not a race of the map")
        party = str(form.get(f"party_{row}", "")).strip().upper()
        if party not in ("D", "R"):
            raise InputError(f"party_{row}", "choose D or R")
        district = str(form.get(f"district_{row}", "")).strip()
        district_id = _int(form, f"district_{row}") if district else NO_CARD
        holding = state.seats[game_map().seat_by_id[race]]
        card = _int(form, f"card_{row}")
        if card in first_row_of:
            where = f"row {first_row_of[card] + 1}" if first_row_of[card] >= 0 else "a race above"
            raise InputError(f"card_{row}", f"card #{card} is already declared in {where}")
        first_row_of[card] = row
        if holding.holder == seat and holding.card == card:
            district_id = holding.district_card
        entries.append(Declaration(seat, race, card, Party(party), district_id))
    return Declarations(tuple(entries))


def decision_from_form(state: GameState, seat: int, form: dict[str, Any]) -> Decision:
    """The decision a submitted form describes; InputError names the field when it is wrong."""
    phase = state.phase
    if phase is Phase.DRAFT:
        return DraftPick(_int(form, "card"))
    if phase is Phase.DECLARE:
        return _declarations(state, seat, form)
    if phase is Phase.WITHDRAW:
        return Withdrawals(tuple(str(race) for race in form.get("withdraw", [])))
    if phase is Phase.AUTHOR:
        if form.get("decline"):
            return BillDraft(())
        rider = str(form.get("rider", "")).strip()
        tags = (str(form.get("tag_1", "")), str(form.get("tag_2", "")))
        return BillDraft(tags, int(rider) if is_plain_digits(rider) else NO_CARD)
    if phase is Phase.AMEND_PROPOSE:
        if form.get("pass"):
            return AmendmentDraft(())
        return AmendmentDraft(tuple(str(form.get(f"tag_{n}", "")) for n in (1, 2, 3)))
    if phase is Phase.AMEND_VOTE:
        choice = str(form.get("choice", ""))
        if choice not in {c.value for c in AmendmentChoice}:
            raise InputError("choice", "choose for, against or abstain")
        return AmendmentVote(AmendmentChoice(choice))
    if phase is Phase.DISCARD:
        chosen = [str(card) for card in form.get("discard", [])]
        for card in chosen:
            if not is_plain_digits(card):
                raise InputError("discard", "choose cards by their numbers", card)
        return Discards(tuple(sorted(int(card) for card in chosen)))
    answer = str(form.get("answer", ""))
    if answer not in ("yes", "no"):
        raise InputError("answer", "answer yes or no")
    return YesNo(answer == "yes")


FORM_FIELDS = {
    "draft.card": "card",
    "withdraw.races": "withdraw",
    "discard.cards": "cards",
    "bill.tags": "tags",
    "bill.rider": "rider",
    "amendment.tags": "tags",
}
"""The form field beside which a refusal of the rules is shown (declarations: the row's race)."""


def form_field(rule_field: str, form: dict[str, Any]) -> str:
    """The form field a refusal of the rules belongs to."""
    if rule_field in FORM_FIELDS:
        return FORM_FIELDS[rule_field]
    kind, _, race = rule_field.partition(".")
    if kind == "declare":
        if f"{PICK}{race}" in form and str(form[f"{PICK}{race}"]) not in ("", "none"):
            return f"{PICK}{race}"
        for name, value in form.items():
            if name.startswith("race_") and str(value).strip().upper() == race:
                return name
    return rule_field


def checked(
    state: GameState, seat: int, decision: Decision, form: dict[str, Any] | None = None
) -> None:
    """The rules' own check, as a one-line refusal in plain words naming the form field."""
    try:
        check_decision(state, seat, decision)
    except RuleError as error:
        raise InputError(form_field(error.field, form or {}), plain(error)) from None


def describe(state: GameState, decision: Decision) -> list[tuple[str, ChanceView | None]]:
    """The decision in words, for the confirmation step: each line with the chance it carries
    (a declaration's), which the page shows as every chance is shown (`_chance.html`)."""
    return [(line, None) if isinstance(line, str) else line for line in _lines(state, decision)]


def _lines(state: GameState, decision: Decision) -> list[str | tuple[str, ChanceView]]:
    """The confirmation's lines; a declaration's comes with its chance."""
    cards = build_cards(state.key)
    if isinstance(decision, DraftPick):
        return [f"Take {cards[decision.card].label()}"]
    if isinstance(decision, Declarations):
        if not decision.entries:
            return ["Declare no candidate this year (seats of yours that come up retire)."]
        lines: list[str | tuple[str, ChanceView]] = []
        for entry in decision.entries:
            view = chance_view(declaration_chance(state, entry))
            district = (
                f" with {cards[entry.district_card].label()}"
                if entry.district_card != NO_CARD
                else ""
            )
            lines.append(
                (f"{entry.race}: {cards[entry.card].label()} as {entry.party.value}{district}",
                 view)
            )
        return lines
    if isinstance(decision, Withdrawals):
        return [f"Withdraw from {', '.join(decision.races) or 'no race'}"]
    if isinstance(decision, BillDraft):
        if not decision.tags:
            return ["Decline to write a bill this year."]
        rider = f", repealing bill #{decision.rider}" if decision.rider != NO_CARD else ""
        return [f"Write an omnibill on [{', '.join(decision.tags)}]{rider}"]
    if isinstance(decision, AmendmentDraft):
        return [f"Propose the amendment [{', '.join(decision.tags)}]" if decision.tags else "Pass"]
    if isinstance(decision, AmendmentVote):
        return [f"Your governors vote {decision.choice.value}"]
    if isinstance(decision, Discards):
        return ["Discard " + ", ".join(cards[c].label() for c in decision.cards)]
    assert isinstance(decision, YesNo)
    return ["Yes" if decision.yes else "No"]
