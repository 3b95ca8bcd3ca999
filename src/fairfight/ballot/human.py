"""A human seat in the terminal: prompts, legal choices, exact chances; bad input is re-asked.

Every answer is checked by the engine's own validation before it is sent, so a mistyped or
illegal choice prints one line saying what is wrong and the question comes again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fairfight.ballot import estimates as est
from fairfight.ballot.advice import declaration_chance, strongest_declarations
from fairfight.ballot.advisor import ADVICE_OPTIMISES, advise
from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.legislature import majority_party
from fairfight.ballot.narration import hand_lines, holder_text, opening_lines
from fairfight.ballot.prompts import phase_prompt, vote_lines
from fairfight.ballot.revealed import revealed_chance
from fairfight.ballot.scoring import scores
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
from fairfight.ballot.tables import TAGS, AmendmentChoice, Office, Party
from fairfight.ballot.validation import check_decision
from fairfight.core.errors import RuleError
from fairfight.core.validation import is_plain_digits

__all__ = [
    "Ask",
    "Say",
    "TerminalHuman",
    "plain",
    "vote_lines",
]


Ask = Callable[[str], str]
Say = Callable[[str], None]


@dataclass
class TerminalHuman:
    """A player typing answers at a terminal."""

    ask: Ask
    say: Say
    name: str = "human"
    seat_names: tuple[str, ...] = ()
    """Who sits at each seat, for the opening screen (empty: seats are named by number)."""
    opened: bool = False

    def decide(self, state: GameState, seat: int) -> Decision:
        """Ask until the answer is legal (the opening screen comes before the first question)."""
        if not self.opened:
            self.opened = True
            names = self.seat_names or tuple(f"seat {n}" for n in range(state.players))
            for line in opening_lines(state, seat, names)[: -1 - len(state.hands[seat])]:
                self.say(line)
            self.say(ADVICE_OPTIMISES)
        self.say(f"Advice: {advise(state, seat).reason}")
        while True:
            try:
                decision = self._ask(state, seat)
                check_decision(state, seat, decision)
                return decision
            except RuleError as error:
                self.say(f"Not accepted: {plain(error)}")
            except ValueError as error:
                self.say(f"Not understood: {error}")

    def show_hand(self, state: GameState, seat: int) -> None:
        """List the hand, one card a line."""
        for line in hand_lines(state, seat):
            self.say(line)

    def _ask(self, state: GameState, seat: int) -> Decision:
        phase = state.phase
        if phase is Phase.DRAFT:
            return self._draft(state, seat)
        if phase is Phase.DECLARE:
            return self._declare(state, seat)
        if phase is Phase.WITHDRAW:
            return self._withdraw(state, seat)
        if phase is Phase.AUTHOR:
            return self._author(state, seat)
        if phase is Phase.AMEND_PROPOSE:
            self._say_prompt(state, seat)
            words = self.ask(
                f"Propose an amendment: {state.config.amend_tags} tags, or 'pass'"
            ).split()
            return AmendmentDraft(() if words in ([], ["pass"]) else tuple(words))
        if phase is Phase.AMEND_VOTE:
            subject = state.amendment_proposal or state.pending_amendment
            assert subject is not None
            self._say_prompt(state, seat)
            answer = self.ask(f"Amendment [{', '.join(subject.tags)}]: for, against or abstain")
            if answer.strip() not in {c.value for c in AmendmentChoice}:
                raise ValueError("answer for, against or abstain")
            return AmendmentVote(AmendmentChoice(answer.strip()))
        if phase is Phase.DISCARD:
            self.show_hand(state, seat)
            self._say_prompt(state, seat)
            need = len(state.hands[seat]) - state.config.hand_limit
            ids = "card id" if need == 1 else "card ids (space separated)"
            return Discards(tuple(_ints(self.ask(f"Discard {need} {ids}"))))
        return YesNo(self._yes_no(state, seat))

    def _say_prompt(self, state: GameState, seat: int) -> None:
        """Say what the phase asks of `seat` (the lines the web page shows above its form)."""
        for line in phase_prompt(state, seat):
            self.say(line)

    def _yes_no(self, state: GameState, seat: int) -> bool:
        phase = state.phase
        questions = {
            Phase.BILL_VOTE: "Vote yes on the omnibill? (y/n)",
            Phase.OVERRIDE_VOTE: "Vote to override the veto? (y/n)",
            Phase.VETO: "Veto the omnibill? (y/n)",
            Phase.IMPEACH_MOTION: "Move to impeach the president? (y/n)",
            Phase.IMPEACH_VOTE: "Vote to remove the president? (y/n)",
        }
        self._say_prompt(state, seat)
        answer = self.ask(questions[phase]).strip().lower()
        if answer not in ("y", "n", "yes", "no"):
            raise ValueError("answer y or n")
        return answer.startswith("y")

    def _draft(self, state: GameState, seat: int) -> DraftPick:
        cards = build_cards(state.key)
        self.show_hand(state, seat)
        self._say_prompt(state, seat)
        self.say("The pack:")
        for card_id in state.packs[seat]:
            self.say(f"  {cards[card_id].label()}")
        ids = _ints(self.ask("Pick a card id"))
        if len(ids) != 1:
            raise ValueError("give one card id")
        return DraftPick(ids[0])

    def _declare(self, state: GameState, seat: int) -> Declarations:
        gmap = game_map()
        self.say(
            f"Year {state.year}: {len(gmap.races_in(state.year))} races come up. Scores: "
            f"{list(scores(state))}"
        )
        self.show_hand(state, seat)
        mine = [i for i in gmap.races_in(state.year) if state.seats[i].holder == seat]
        for index in mine:
            holding = state.seats[index]
            self.say(
                f"  your seat {gmap.seats[index].race_id} is up (card #{holding.card}); "
                "re-run it by declaring that card, or it retires"
            )
        self._list_races(state, seat)
        self._suggest(state, seat)
        self._say_prompt(state, seat)
        self.say(
            "Declare one per line: RACE CARD PARTY [DISTRICT_CARD]; 'list' shows the races "
            "again, 'best' the strongest choices; an empty line ends."
        )
        entries: list[Declaration] = []
        while True:
            line = self.ask("Declaration").strip()
            if not line:
                return Declarations(tuple(entries))
            if line == "list":
                self._list_races(state, seat)
                continue
            if line == "best":
                self._suggest(state, seat)
                continue
            try:
                entry = self._parse_declaration(state, seat, line)
                check_decision(state, seat, Declarations((*entries, entry)))
            except (RuleError, ValueError) as error:
                text = plain(error) if isinstance(error, RuleError) else str(error)
                self.say(f"Not accepted: {text}")
                continue
            priced = declaration_chance(state, entry)
            self.say(
                f"  {entry.race}: win chance {priced.text()} ({priced.how})"
            )
            entries.append(entry)

    @staticmethod
    def _parse_declaration(state: GameState, seat: int, line: str) -> Declaration:
        words = line.split()
        if len(words) not in (3, 4):
            raise ValueError("write RACE CARD PARTY [DISTRICT_CARD], e.g. S-AZ-III 12 D")
        race, card_text, party_text = words[:3]
        if party_text.upper() not in ("D", "R"):
            raise ValueError("party is D or R")
        numbers = _ints(" ".join([card_text, *words[3:]]))
        holding_index = game_map().seat_by_id.get(race)
        district = numbers[1] if len(numbers) == 2 else NO_CARD
        if holding_index is not None:
            holding = state.seats[holding_index]
            if holding.holder == seat and holding.card == numbers[0]:
                district = holding.district_card
        return Declaration(seat, race, numbers[0], Party(party_text.upper()), district)

    def _suggest(self, state: GameState, seat: int) -> None:
        """The strongest new declarations, each with a different card and race."""
        picks = strongest_declarations(state, seat)
        if not picks:
            return
        self.say(f"Strongest choices, one card each ({len(picks)}; no district card):")
        for priced in picks:
            entry = priced.declaration
            self.say(
                f"  {entry.race} {entry.card} {entry.party.value}: {priced.text()} "
                f"({priced.how})"
            )

    def _list_races(self, state: GameState, seat: int) -> None:
        gmap = game_map()
        house = 0
        for index in gmap.races_in(state.year):
            info = gmap.seats[index]
            if info.office is Office.HOUSE:
                house += 1
                continue
            where = (
                ""
                if index == 0
                else (
                    f" tags {'/'.join(gmap.states[info.state].tags)},"
                    f" P(s) {est.partisan(state, info.state):+d}"
                )
            )
            self.say(f"  {info.race_id}: {holder_text(state, index, seat)}{where}")
        if house:
            self.say(f"  and {house} House races H-ST-k (k = district number)")

    def _withdraw(self, state: GameState, seat: int) -> Withdrawals:
        mine = [d for d in state.declarations if d.player == seat]
        if not mine:
            return Withdrawals(())
        self._say_prompt(state, seat)
        for decl in mine:
            rivals = [
                f"seat {d.player} ({d.party.value}, #{d.card})"
                for d in state.declarations
                if d.race == decl.race and d.player != seat
            ]
            priced = revealed_chance(state, decl)
            self.say(
                f"  {decl.race}: you run #{decl.card} as {decl.party.value}; "
                f"against {', '.join(rivals) or 'a board generic'}; win chance "
                f"{priced.text()} ({priced.how})"
            )
        return Withdrawals(tuple(self.ask("Withdraw from which races? (empty: none)").split()))

    def _author(self, state: GameState, seat: int) -> BillDraft:
        party = majority_party(state, Office.HOUSE)
        books = (
            ", ".join(f"#{b.number} ({'/'.join(b.tags)}, held by {b.holder})" for b in state.bills)
            or "none"
        )
        self._say_prompt(state, seat)
        self.say(f"The omnibill is a {party.value} bill. On the books: {books}")
        self.say(f"Tags: {', '.join(TAGS)}")
        words = self.ask("Two tags and an optional bill number to repeal, or 'decline'").split()
        if words == ["decline"]:
            return BillDraft(())
        if len(words) not in (2, 3):
            raise ValueError("give two tags, optionally followed by a bill number")
        rider = _ints(words[2])[0] if len(words) == 3 else NO_CARD
        return BillDraft(tuple(words[:2]), rider)


def plain(error: RuleError) -> str:
    """A refusal in plain words: where (a race, a card list) and why, no internal names."""
    rule = " ".join(error.rule.split())
    kind, _, race = error.field.partition(".")
    return f"{race}: {rule}" if kind == "declare" and race else rule


def _ints(text: str) -> list[int]:
    """Whole numbers from a line (card ids may be written with a leading #)."""
    values = []
    for word in text.replace(",", " ").split():
        word = word.lstrip("#")
        if not is_plain_digits(word):
            raise ValueError(f"{word!r} is not a card or bill number")
        values.append(int(word))
    return values
