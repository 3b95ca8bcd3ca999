"""The Pollster bot: expected value from the exact tables, keeps a reserve of cards [11]."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.options import Greedy, Option, PricedGreedy, Pricing, priced_options
from fairfight.ballot.racebook import (
    RaceBook,
    RaceGroup,
    presidential_part,
    race_book,
)
from fairfight.ballot.scoring import scores
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
from fairfight.ballot.tables import (
    BOARD,
    BOARD_GENERIC_PART,
    BOARD_INCUMBENCY_BONUS,
    OFFICE_HOUSE,
    TAGS,
    AmendmentChoice,
    Party,
    VictoryMode,
)
from fairfight.ballot.worth import card_worth, district_gain, option_ceilings

__all__ = [
    "DISTRICT_DRAFT_BASE",
    "LEAD_TO_PROPOSE",
    "Pollster",
    "RERUN_FLOOR",
    "RESERVE",
    "TAKE_FLOOR",
    "TRAIL_TO_OPPOSE",
    "board_governor_triple",
    "gmap_race",
]


RERUN_FLOOR = 0.4
TAKE_FLOOR = 0.5
RESERVE = 6
LEAD_TO_PROPOSE = 5
TRAIL_TO_OPPOSE = 3
DISTRICT_DRAFT_BASE = 2


@dataclass
class Pollster:
    """Declares where p*V - cost is best, withdraws losing bets, votes its interest [11]."""

    name: str = "pollster"
    bids: dict[str, float] = field(default_factory=dict)
    _book: RaceBook | None = None

    def decide(self, state: GameState, seat: int) -> Decision:
        """Answer the current phase."""
        phase = state.phase
        if phase is Phase.DRAFT:
            return self.draft(state, seat)
        if phase is Phase.DECLARE:
            return self.declare(state, seat)
        if phase is Phase.WITHDRAW:
            return self.withdraw(state, seat)
        if phase is Phase.AUTHOR:
            return self.author(state, seat)
        if phase in (Phase.BILL_VOTE, Phase.OVERRIDE_VOTE):
            return YesNo(self.votes_yes(state, seat))
        if phase is Phase.VETO:
            assert state.proposal is not None
            holder = kit.projected_holder(state, state.proposal, state.votes)
            totals = scores(state)
            return YesNo(holder not in (BOARD, seat) and totals[holder] >= totals[seat])
        if phase in (Phase.IMPEACH_MOTION, Phase.IMPEACH_VOTE):
            president = state.seats[0].holder
            return YesNo(president != seat and kit.current_leader(state) == president != BOARD)
        if phase is Phase.AMEND_PROPOSE:
            return self.propose(state, seat)
        if phase is Phase.AMEND_VOTE:
            return self.amendment_vote(state, seat)
        return kit.discard_down(state, seat)

    # ---- races ------------------------------------------------------------------------

    def book(self, state: GameState, seat: int) -> RaceBook:
        """This year's grouped races, rebuilt only when the board has changed."""
        if self._book is None or not self._book.fits(state, seat):
            self._book = race_book(state, seat)
        return self._book

    def groups(
        self, state: GameState, seat: int, taken: set[int], only_state: int | None = None
    ) -> list[RaceGroup]:
        """This year's open races, grouped when they look identical to a newcomer."""
        return self.book(state, seat).open_groups(taken, only_state)

    def options(
        self,
        state: GameState,
        seat: int,
        taken: set[int],
        candidates: list[Card],
        districts: list[Card],
        floor: float = TAKE_FLOOR,
        only_state: int | None = None,
    ) -> list[Option]:
        """(card x open race x party x district or none) with p*V >= floor [11]."""
        groups = self.groups(state, seat, taken, only_state)
        return priced_options(Pricing(state.key, candidates, districts, floor), groups)

    def declare(self, state: GameState, seat: int) -> Declarations:
        """Re-runs with p >= 0.4, then greedy by EV (Speaker bid included) [11]."""
        cards = build_cards(state.key)
        chosen: list[Declaration] = []
        taken: set[int] = set()
        for index in kit.up_this_year(state):
            holding = state.seats[index]
            if holding.holder != seat:
                continue
            card = cards[holding.card]
            best = max(
                (
                    (self._rerun_p(state, index, party), party)
                    for party in dict.fromkeys((holding.party, card.printed))
                ),
                key=lambda item: item[0],
            )
            if best[0] >= RERUN_FLOOR:
                chosen.append(kit.rerun(state, seat, index, best[1].value))
                taken.add(index)
        hand = kit.hand_cards(state, seat)
        candidates = [card for card in hand if card.is_candidate]
        districts = [card for card in hand if not card.is_candidate]
        groups = self.groups(state, seat, taken)
        # An option below the floor is never taken (the loop stops at the first one), so the
        # pools leave them out; the options worth less are only priced when the hand is still
        # over the limit after the greedy picks.
        used: set[int] = set()
        pricing = Pricing(state.key, candidates, districts, TAKE_FLOOR, TAKE_FLOOR)
        pricing.ceilings = option_ceilings(state.key, self.book(state, seat), pricing)
        bids, need = self._speaker_bid(state, seat, chosen, groups, pricing, taken, used)
        pools = [PricedGreedy(pricing, groups, taken, used), bids]
        size = len(hand)
        bids_taken = 0
        while size - 1 >= RESERVE:  # else no option fits the reserve: no need to price more
            picks = [pool.peek() for pool in pools[: 2 if bids_taken < need else 1]]
            ranked = [
                (p[0].value, -p[0].card, -p[1], number, p)
                for number, p in enumerate(picks)
                if p is not None
            ]
            if not ranked:
                break
            *_, number, (option, index) = max(ranked)
            if option.value < TAKE_FLOOR or size - option.cards_used < RESERVE:
                break
            if number == 1:
                bids_taken += 1
                self.bids[gmap_race(index)] = option.office_value
            size -= option.cards_used
            self._take(option, index, chosen, taken, used, seat)
        if size <= state.config.hand_limit:
            return Declarations(tuple(chosen))
        spare = priced_options(Pricing(state.key, candidates, [], TAKE_FLOOR, charge=False), groups)
        surplus = Greedy(spare, taken, used)
        while size > state.config.hand_limit and (found := surplus.peek()) is not None:
            size -= 1
            self._take(found[0], found[1], chosen, taken, used, seat)
        return Declarations(tuple(chosen))

    @staticmethod
    def _take(
        option: Option,
        index: int,
        chosen: list[Declaration],
        taken: set[int],
        used: set[int],
        seat: int,
    ) -> None:
        chosen.append(
            Declaration(seat, gmap_race(index), option.card, option.party, option.district)
        )
        taken.add(index)
        used.add(option.card)
        if option.district != NO_CARD:
            used.add(option.district)

    def _rerun_p(self, state: GameState, index: int, party: Party) -> float:
        """Chance of a re-run under `party` against a board generic."""
        if index == 0:
            card = build_cards(state.key)[state.seats[0].card]
            return est.presidential_p(card, party, BOARD_GENERIC_PART)
        info = game_map().seats[index]
        shift = est.partisan(state, info.state) * party.sign()
        return est.general_p(est.seated_part(state, index, party) + shift - BOARD_GENERIC_PART)

    def _speaker_bid(
        self,
        state: GameState,
        seat: int,
        chosen: list[Declaration],
        groups: list[RaceGroup],
        pricing: Pricing,
        taken: set[int],
        used: set[int],
    ) -> tuple[Greedy, int]:
        """House options under the majority party, valued at 2 + SV/need [11]."""
        self.bids = {}
        if state.year % 2:
            return Greedy([], taken, used), 0
        party = leg.majority_party(state, OFFICE_HOUSE)
        gmap = game_map()
        reruns = sum(
            1 for d in chosen if d.party is party and gmap.seat(d.race).office is OFFICE_HOUSE
        )
        need = est.house_need(state, seat, party, reruns)
        if need < 1:
            return Greedy([], taken, used), 0
        value = est.speaker_value(state, seat, self._pair(state, seat, party))
        boosted = pricing.raised(kit.OFFICE_VALUE[OFFICE_HOUSE] + value / need)
        house = [g for g in groups if g.party is party and g.office is OFFICE_HOUSE]
        return PricedGreedy(boosted, house, taken, used), need

    def withdraw(self, state: GameState, seat: int) -> Withdrawals:
        """Withdraw where p*V - c < 0 with the revealed fields [11]."""
        cost = 0 if len(state.hands[seat]) >= state.config.hand_limit else kit.CARD_COST
        pulled = []
        for decl in state.declarations:
            if decl.player != seat:
                continue
            index = game_map().seat_by_id[decl.race]
            value = self.bids.get(
                decl.race, float(kit.OFFICE_VALUE[game_map().seats[index].office])
            )
            if self.revealed_chance(state, decl, index) * value - cost < 0:
                pulled.append(decl.race)
        return Withdrawals(tuple(pulled))

    def revealed_chance(self, state: GameState, decl: Declaration, index: int) -> float:
        """p_P * p_G against the revealed candidates (board generic where a side is empty)."""
        cards = build_cards(state.key)
        info = game_map().seats[index]
        rivals = [d for d in state.declarations if d.race == decl.race and d.player != decl.player]

        def part(entry: Declaration) -> int:
            if index == 0:
                return presidential_part(cards[entry.card], entry.party)
            return est.entry_part(state, entry, index)

        mine = part(decl)
        same = [part(d) for d in rivals if d.party is decl.party]
        other = [part(d) for d in rivals if d.party is not decl.party]
        holding = state.seats[index]
        if other:
            opposing = max(other)
        else:
            board_inc = index != 0 and holding.holder == BOARD and holding.party is not decl.party
            opposing = BOARD_GENERIC_PART + (BOARD_INCUMBENCY_BONUS if board_inc else 0)
        if index == 0:
            chance = est.presidential_p(cards[decl.card], decl.party, opposing)
        else:
            shift = est.partisan(state, info.state) * decl.party.sign()
            chance = est.general_p(mine + shift - opposing)
        if same:
            chance *= est.primary_p(mine - max(same))
        return chance

    def draft(self, state: GameState, seat: int) -> DraftPick:
        """The card with the best EV this year; a district card is worth 2 + its best gain."""
        cards = build_cards(state.key)
        pack = [cards[c] for c in state.packs[seat]]
        worth = self.draft_worth(state, seat)
        chosen = max(pack, key=lambda card: (worth[card.id], -card.id))
        return DraftPick(chosen.id)

    def draft_worth(self, state: GameState, seat: int) -> dict[int, float]:
        """What each card of the pack is worth to the draft, in points: a candidate its best
        p*V - 1 this year, a district card 2 + its best gain (the advice quotes these)."""
        cards = build_cards(state.key)
        pack = [cards[c] for c in state.packs[seat]]
        candidates = [card for card in pack if card.is_candidate]
        districts = [card for card in pack if not card.is_candidate]
        book = self.book(state, seat)
        worth = {card.id: card_worth(state.key, book, card) for card in candidates}
        holders = [c for c in kit.hand_cards(state, seat) if c.is_candidate] + candidates
        for district in districts:
            # A hand and pack without candidate cards give no gain: the district is worth its base.
            gains = [district_gain(state.key, book, card, district) for card in holders]
            worth[district.id] = DISTRICT_DRAFT_BASE + max([0.0, *gains])
        return worth

    # ---- legislature --------------------------------------------------------------------

    def _pair(self, state: GameState, seat: int, party: Party) -> tuple[str, ...]:
        return est.best_pair(state, party, est.pairs_touching(kit.seated_tags(state, seat)))

    def author(self, state: GameState, seat: int) -> BillDraft:
        """The best board-vote pair touching its tags; a rider on the leader's newest bill.

        A seat with no tag (none on its seated cards, none on a candidate in hand) has no pair
        to write and declines; a declined bill carries no rider [7.3], so it names none."""
        party = leg.majority_party(state, OFFICE_HOUSE)
        pair = self._pair(state, seat, party)
        top = kit.current_leader(state)
        rider = kit.newest_bill_of(state, top) if pair and top not in (BOARD, seat) else NO_CARD
        return BillDraft(pair, rider)

    def votes_yes(self, state: GameState, seat: int) -> bool:
        """Author, would-be holder, or a bill on its tags not going to the leader [11]."""
        bill = state.proposal
        assert bill is not None
        if bill.author == seat:
            return True
        holder = kit.projected_holder(state, bill)
        if holder == seat:
            return True
        return bool(set(bill.tags) & kit.seated_tags(state, seat)) and (
            holder != kit.current_leader(state)
        )

    def propose(self, state: GameState, seat: int) -> AmendmentDraft:
        """Only in amendment mode, leading by 5+: the triple most board governors back [11]."""
        if state.config.victory is not VictoryMode.AMENDMENT:
            return AmendmentDraft(())
        if kit.lead_margin(state, seat) < LEAD_TO_PROPOSE:
            return AmendmentDraft(())
        return AmendmentDraft(board_governor_triple(state))

    def amendment_vote(self, state: GameState, seat: int) -> AmendmentVote:
        """For when it leads (amendment mode) or on its tags; against when trailing by 3+."""
        subject = state.amendment_proposal or state.pending_amendment
        assert subject is not None
        if state.config.victory is VictoryMode.AMENDMENT:
            favour = kit.current_leader(state) == seat
        else:
            favour = bool(set(subject.tags) & kit.seated_tags(state, seat))
        if favour:
            return AmendmentVote(AmendmentChoice.FOR)
        if kit.lead_margin(state, seat) <= -TRAIL_TO_OPPOSE:
            return AmendmentVote(AmendmentChoice.AGAINST)
        return AmendmentVote(AmendmentChoice.ABSTAIN)


def board_governor_triple(state: GameState) -> tuple[str, ...]:
    """The amendment triple that the most board governors would back [8.2]."""
    gmap = game_map()
    board_states = [
        _tag_mask(gmap.states[i].tags)
        for i, seats in enumerate(gmap.state_seats)
        if state.seats[seats[-1]].holder == BOARD
    ]
    best: tuple[str, ...] = ()
    best_count = -1
    for triple in combinations(TAGS, state.config.amend_tags):
        mask = _tag_mask(triple)
        count = sum(1 for tags in board_states if tags & mask)
        if count > best_count:
            best, best_count = triple, count
    return best


@cache
def _tag_mask(tags: tuple[str, ...]) -> int:
    """Tags as bits (rules order), so shared tags are one `&`."""
    return sum(1 << TAGS.index(tag) for tag in set(tags))


def gmap_race(index: int) -> str:
    """The race id of a seat index."""
    return game_map().seats[index].race_id
