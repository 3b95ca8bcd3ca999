"""The Machine bot: a regional boss with four home states that spends freely [11]."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import groupby

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.geo import (
    SeatInfo,
    game_map,
    race_positions,
    races_by_office,
    state_tag_sets,
)
from fairfight.ballot.scoring import lean_party
from fairfight.ballot.state import (
    NO_CARD,
    AmendmentDraft,
    AmendmentVote,
    BillDraft,
    Decision,
    Declaration,
    Declarations,
    DraftPick,
    GameState,
    Phase,
    Withdrawals,
    YesNo,
)
from fairfight.ballot.tables import BOARD, TAGS, AmendmentChoice, Office, Party

__all__ = [
    "HOME_BASELINE_LIMIT",
    "HOME_STATES",
    "Machine",
    "PRESIDENT_GOVERNORS",
    "PRESIDENT_SEATS",
    "PRIMARY_GAP",
    "SAFE_SENATE",
    "machine_homes",
]


HOME_STATES = 4
HOME_BASELINE_LIMIT = 1
PRESIDENT_GOVERNORS = 2
PRESIDENT_SEATS = 15
SAFE_SENATE = 2
PRIMARY_GAP = 2


def machine_homes(state: GameState, machine_seats: list[int]) -> dict[int, tuple[int, ...]]:
    """Home states, chosen in seat order and exclusive: |base| <= 1, EV x (1 + fitting cards)."""
    gmap = game_map()
    cards = build_cards(state.key)
    claimed: set[int] = set()
    homes: dict[int, tuple[int, ...]] = {}
    for seat in sorted(machine_seats):
        hand = [cards[c] for c in state.hands[seat] if cards[c].is_candidate]
        scored = []
        for home in gmap.states:
            if abs(home.baseline) > HOME_BASELINE_LIMIT or home.index in claimed:
                continue
            fitting = sum(1 for card in hand if card.tags & set(home.tags))
            scored.append((-home.electoral_votes * (1 + fitting), home.index))
        chosen = tuple(sorted(index for _, index in sorted(scored)[:HOME_STATES]))
        claimed.update(chosen)
        homes[seat] = chosen
    return homes


@dataclass
class Machine:
    """Re-runs everything, contests home and safe races, bids for the Speaker's chair [11]."""

    machine_seats: list[int]
    name: str = "machine"
    homes: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def home(self, state: GameState, seat: int) -> tuple[int, ...]:
        """This Machine's home states (fixed at the first decision, from the dealt hands)."""
        if not self.homes:
            self.homes = machine_homes(state, self.machine_seats)
        return self.homes[seat]

    def home_tags(self, state: GameState, seat: int) -> frozenset[str]:
        """The tags of its home states."""
        return _tags_of(self.home(state, seat))

    def decide(self, state: GameState, seat: int) -> Decision:
        """Answer the current phase."""
        phase = state.phase
        home = self.home(state, seat)
        tags = self.home_tags(state, seat)
        if phase is Phase.DRAFT:
            return self.draft(state, seat, home, tags)
        if phase is Phase.DECLARE:
            return self.declare(state, seat, home)
        if phase is Phase.WITHDRAW:
            return self.withdraw(state, seat)
        if phase is Phase.AUTHOR:
            party = leg.majority_party(state, Office.HOUSE)
            return BillDraft(est.best_pair(state, party, est.pairs_within(tags)))
        if phase in (Phase.BILL_VOTE, Phase.OVERRIDE_VOTE):
            bill = state.proposal
            assert bill is not None
            mine = kit.projected_holder(state, bill) == seat
            return YesNo(bool(set(bill.tags) & tags) or mine)
        if phase is Phase.VETO:
            assert state.proposal is not None
            return YesNo(not set(state.proposal.tags) & tags)
        if phase is Phase.IMPEACH_MOTION:
            return YesNo(False)
        if phase is Phase.IMPEACH_VOTE:
            president = state.seats[0].holder
            return YesNo(kit.current_leader(state) == president != BOARD)
        if phase is Phase.AMEND_PROPOSE:
            counts = Counter(tag for index in home for tag in game_map().states[index].tags)
            ranked = sorted(counts, key=lambda tag: (-counts[tag], TAGS.index(tag)))
            return AmendmentDraft(
                tuple(ranked[: state.config.amend_tags])
                if len(ranked) >= state.config.amend_tags
                else ()
            )
        if phase is Phase.AMEND_VOTE:
            subject = state.amendment_proposal or state.pending_amendment
            assert subject is not None
            shares = bool(set(subject.tags) & tags)
            return AmendmentVote(AmendmentChoice.FOR if shares else AmendmentChoice.AGAINST)
        return kit.discard_down(state, seat, frozenset(home))

    def draft(
        self, state: GameState, seat: int, home: tuple[int, ...], tags: frozenset[str]
    ) -> DraftPick:
        """Home district cards, then the most home-tag overlap, then the highest m."""
        cards = build_cards(state.key)

        def rank(card: Card) -> tuple[int, int, int, int]:
            if not card.is_candidate:
                return (2 if card.state in home else 0, 0, 0, -card.id)
            return (1, len(card.tags & tags), card.modifier, -card.id)

        return DraftPick(max((cards[c] for c in state.packs[seat]), key=rank).id)

    def declare(self, state: GameState, seat: int, home: tuple[int, ...]) -> Declarations:
        """Re-runs, president, home Senate and governor, Speaker bid, safe Senate, home House."""
        gmap = game_map()
        up = kit.up_this_year(state)
        calendar = race_positions(state.year)
        mine = [i for i in leg.seating(state).held if state.seats[i].holder == seat]
        mine = sorted((i for i in mine if i in calendar), key=calendar.__getitem__)
        chosen = [kit.rerun(state, seat, index) for index in mine]
        taken = {gmap.seat_by_id[d.race] for d in chosen}
        hand = kit.hand_cards(state, seat)
        candidates = [card for card in hand if card.is_candidate]
        districts = [card for card in hand if not card.is_candidate and card.state in home]
        if 0 in up and 0 not in taken and candidates and self._runs_for_president(state, seat):
            card = max(candidates, key=lambda c: (c.modifier, -c.id))
            chosen.append(Declaration(seat, gmap.seats[0].race_id, card.id, card.printed))
            candidates.remove(card)
            taken.add(0)
        for phase, bid in self._phases(state, seat, home, up, tuple(chosen)):
            if not candidates:
                break
            races = [(index, party) for index, party in phase if index not in taken]
            while races and candidates:
                index, party, card, district = self._best_pair(
                    state, races, candidates, districts, bid
                )
                info = gmap.seats[index]
                run_as = party or card.printed
                chosen.append(
                    Declaration(
                        seat, info.race_id, card.id, run_as, district.id if district else NO_CARD
                    )
                )
                candidates.remove(card)
                if district is not None:
                    districts.remove(district)
                taken.add(index)
                races.remove((index, party))
        return Declarations(tuple(chosen))

    def _runs_for_president(self, state: GameState, seat: int) -> bool:
        governors = sum(
            1
            for index in self.home(state, seat)
            if state.seats[game_map().state_seats[index][-1]].holder == seat
        )
        return governors >= PRESIDENT_GOVERNORS or kit.seats_held(state, seat) >= PRESIDENT_SEATS

    @staticmethod
    def _best_pair(
        state: GameState,
        races: list[tuple[int, Party | None]],
        candidates: list[Card],
        districts: list[Card],
        bid: bool,
    ) -> tuple[int, Party | None, Card, Card | None]:
        """The best remaining (race, card) pair of a phase: best fit first [11].

        Fit counts the card's tags in the race's tag set, the attached home district card's
        tags included; then the higher m; then a card that needs no party switch; in a Speaker
        bid a board-held seat before a rival's; then the lower card id and the lower seat.
        """
        gmap = game_map()
        best: tuple[tuple[int, ...], int, Party | None, Card, Card | None] | None = None
        plain = state_tag_sets()
        least = 0  # the best fit so far: a worse fit can never rank higher
        for index, party in races:
            info = gmap.seats[index]
            district = None
            if districts:
                district = next((d for d in districts if _district_fits(info, d)), None)
            tags = est.race_tags(info.state, district.tags) if district else plain[info.state]
            board_held = bid and state.seats[index].holder == BOARD
            for card in candidates:
                fit = len(card.tags & tags)
                if fit < least:
                    continue
                rank = (
                    fit,
                    card.modifier,
                    party is None or party is card.party,
                    board_held,
                    -card.id,
                    -index,
                )
                if best is None or rank > best[0]:
                    best = (rank, index, party, card, district)
                    least = fit
        assert best is not None
        return best[1], best[2], best[3], best[4]

    def _phases(
        self,
        state: GameState,
        seat: int,
        home: tuple[int, ...],
        up: tuple[int, ...],
        chosen: tuple[Declaration, ...],
    ) -> Iterator[tuple[list[tuple[int, Party | None]], bool]]:
        """The priority phases, each a list of (race, party to run under), and whether the
        phase is the Speaker bid: home Senate, home governor, Speaker bid, other safe Senate
        races, home House [11]. Built one at a time, as the declaration reaches them (it stops
        when its cards run out); the Speaker bid counts the declarations made before any."""
        gmap = game_map()
        partisans = est.partisans(state)
        by_office = races_by_office(state.year)

        def at_home(office: Office) -> list[tuple[int, Party | None]]:
            by_state = _races_by_state(state.year, office)
            races: list[tuple[int, Party | None]] = []
            for where in sorted(home):
                party = lean_party(partisans[where])
                races.extend((index, party) for index in by_state[where])
            return races

        yield at_home(Office.SENATE), False
        yield at_home(Office.GOVERNOR), False
        if state.year % 2 == 0:
            party = leg.majority_party(state, Office.HOUSE)
            reruns = sum(
                1 for d in chosen if d.party is party and gmap.seat(d.race).office is Office.HOUSE
            )
            need = est.house_need(state, seat, party, reruns)
            mine = {gmap.seat_by_id[d.race] for d in chosen}
            bid = _safest_house(state, partisans, party, set(home), mine, need)
            yield [(i, party) for i in bid], True
        others = [
            i
            for i in by_office.get(Office.SENATE, ())
            if (where := gmap.seats[i].state) not in home and abs(partisans[where]) >= SAFE_SENATE
        ]
        yield [(i, lean_party(partisans[gmap.seats[i].state])) for i in others], False
        yield at_home(Office.HOUSE), False

    def withdraw(self, state: GameState, seat: int) -> Withdrawals:
        """Only from primaries where its card part trails the opponent's by 2 or more."""
        gmap = game_map()
        cards = build_cards(state.key)
        fields: dict[tuple[str, Party], list[Declaration]] = {}
        for entry in state.declarations:
            fields.setdefault((entry.race, entry.party), []).append(entry)
        pulled = []
        for decl in state.declarations:
            if decl.player != seat:
                continue
            rivals = [d for d in fields[decl.race, decl.party] if d.player != seat]
            if not rivals:
                continue
            index = gmap.seat_by_id[decl.race]

            def part(entry: Declaration, index: int = index) -> int:
                if index == 0:
                    card = cards[entry.card]
                    return card.modifier - (1 if entry.party is not card.party else 0)
                return est.entry_part(state, entry, index)

            if part(decl) <= max(map(part, rivals)) - PRIMARY_GAP:
                pulled.append(decl.race)
        return Withdrawals(tuple(pulled))


@cache
def _races_by_state(year: int, office: Office) -> tuple[tuple[int, ...], ...]:
    """The year's races of an office in each state (by state index), in resolution order."""
    gmap = game_map()
    found: list[list[int]] = [[] for _ in gmap.states]
    for index in races_by_office(year).get(office, ()):
        found[gmap.seats[index].state].append(index)
    return tuple(tuple(races) for races in found)


def _safest_house(
    state: GameState,
    partisans: list[int],
    party: Party,
    homes: set[int],
    mine: set[int],
    need: int,
) -> list[int]:
    """The Speaker bid's `need` House races: safest for `party` first, then home states, then
    board-held seats, then the lower seat. States are ranked first and their races only read
    until `need` are found (a state's races come in seat order, as the states do)."""
    sign = party.sign()
    seats = state.seats
    by_state = _races_by_state(state.year, Office.HOUSE)

    def safety(where: int) -> tuple[int, bool]:
        return -partisans[where] * sign, where not in homes

    found: list[int] = []
    for _, tied in groupby(sorted(range(len(by_state)), key=safety), key=safety):
        races = [i for where in tied for i in by_state[where] if i not in mine]
        races.sort(key=lambda i: seats[i].holder != BOARD)
        found.extend(races)
        if len(found) >= need:
            break
    return found[: max(need, 0)]


@lru_cache(maxsize=256)
def _tags_of(home: tuple[int, ...]) -> frozenset[str]:
    """The tags of these states."""
    states = game_map().states
    return frozenset(tag for index in home for tag in states[index].tags)


def _district_fits(target: SeatInfo, district: Card) -> bool:
    """A district card may join its state's Senate and governor races and its own district."""
    return target.state == district.state and (
        target.office is not Office.HOUSE or target.district == district.district
    )
