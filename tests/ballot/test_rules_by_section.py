"""Rules of races, draws and lean, each checked against the design with expectations worked
out in the test: dice straight from hashlib at their section 13 addresses, card parts and
pushes by hand.
"""

from __future__ import annotations

import pytest

from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import apply_pushes, resolve_presidency, roll_year_dice
from fairfight.ballot.engine import advance, begin_year, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.players import play_game
from fairfight.ballot.state import (
    Declaration,
    Declarations,
    Discards,
    DraftPick,
    GameState,
    Holding,
    Phase,
    Withdrawals,
)
from fairfight.ballot.tables import (
    BOARD,
    TAGS,
    BallotConfig,
    Office,
    Party,
)
from fairfight.ballot.yearend import (
    finish_legislature,
)
from fairfight.core.errors import InputError, RuleError
from fairfight.core.validation import parse_model
from tests.ballot.appendix_a import rows
from tests.ballot.oracle import (
    CONFIG,
    VOCABULARY,
    below,
    board_only_presidency,
    d6,
    fresh,
    presidency_work,
    push_by_hand,
)


def test_card_faces_follow_their_addresses() -> None:
    """[1.7, 13] tags drawn without replacement; district number and second tag by address."""
    key = "4242"
    cards = build_cards(key)
    for card_id, modifier in ((0, 0), (12, 1), (40, 2), (60, 3), (72, 0), (143, 3)):
        remaining = list(VOCABULARY)
        expected = set()
        for j in range(3 - modifier):
            expected.add(remaining.pop(below(len(remaining), f"{key}:0:tag:{card_id}:{j}")))
        assert cards[card_id].modifier == modifier
        assert cards[card_id].tags == expected
    for number, row in enumerate(rows()):
        card = cards[144 + number]
        code, tags = row["code"], row["tags"]
        assert card.district == 1 + below(int(row["house"]), f"{key}:0:district:{code}")  # type: ignore[call-overload]
        others = [tag for tag in VOCABULARY if tag not in tags]  # type: ignore[operator]
        second = others[below(9, f"{key}:0:dtag:{code}")]
        assert card.tags == {tags[0], second}  # type: ignore[index]


def test_setup_shuffle_deal_and_start_player() -> None:
    """[1.8, 13] Fisher-Yates over ids 0..193 (k = 0, year 0), 16 rounds in seat order."""
    key, players = "990", 3
    deck = list(range(194))
    for i in range(193, 0, -1):
        j = below(i + 1, f"{key}:0:shuffle:0:{i}")
        deck[i], deck[j] = deck[j], deck[i]
    state = fresh(players, key)
    for seat in range(players):
        assert state.hands[seat] == tuple(sorted(deck[seat : 16 * players : players]))
    start = below(players, f"{key}:0:start")
    assert state.start_player == start
    rest = deck[16 * players :]
    order = [(start + i) % players for i in range(players)]
    for place, seat in enumerate(order):
        assert state.packs[seat] == tuple(rest[8 * place : 8 * place + 8])


def test_reshuffle_takes_the_sorted_discard_with_the_year_and_next_k() -> None:
    """[3.1, 13] An empty deck reshuffles the discard pile sorted by id, year y, k = 1."""
    state = fresh(2, "31")
    discard = (150, 3, 77, 12, 190, 40, 41, 8, 99, 100, 5, 64, 120, 131, 2, 17, 18)
    state = state.with_changes(deck=(), discard=discard, year=2030, packs=())
    opened, _ = begin_year(state, first=True)
    pile = sorted(discard)
    for i in range(len(pile) - 1, 0, -1):
        j = below(i + 1, f"31:2030:shuffle:1:{i}")
        pile[i], pile[j] = pile[j], pile[i]
    first, second = state.turn_order()
    assert opened.packs[first] == tuple(pile[:8])
    assert opened.packs[second] == tuple(pile[8:16])
    assert opened.deck == tuple(pile[16:]) and opened.shuffles == 2


def play_year_without_declarations(state: GameState) -> tuple[GameState, list[dict[str, object]]]:
    """Pick the first card, declare nothing, discard the lowest ids: one whole year."""
    year, events = state.year, []
    while state.year == year and state.phase is not Phase.OVER:
        answers: dict[int, object] = {}
        for seat in requested_seats(state):
            if state.phase is Phase.DRAFT:
                answers[seat] = DraftPick(state.packs[seat][0])
            elif state.phase is Phase.DECLARE:
                answers[seat] = Declarations(())
            elif state.phase is Phase.WITHDRAW:
                answers[seat] = Withdrawals(())
            else:
                assert state.phase is Phase.DISCARD
                extra = len(state.hands[seat]) - state.config.hand_limit
                answers[seat] = Discards(state.hands[seat][:extra])
        state, more = advance(state, answers)  # type: ignore[arg-type]
        events.extend(more)
    return state, events


def test_presidency_state_by_state_with_pushes_recomputed_by_hand() -> None:
    """[5.8, 6.1, 6.2, 6.4] 50 winner-take-all contests, 268 of 535, one push per state."""
    key = "1000"
    _, events = play_year_without_declarations(fresh(2, key))
    president = next(e for e in events if e["event"] == "presidency")
    expected, d_votes = board_only_presidency(key, 2028)
    assert {c["state"]: (c["winner"], c["margin"]) for c in president["states"]} == expected  # type: ignore[index, union-attr]
    assert president["electoral_votes"] == {"D": d_votes, "R": 535 - d_votes}
    assert president["winner"] == ("D" if d_votes >= 268 else "R")
    pushes = next(e for e in events if e["event"] == "lean-push")
    assert pushes["changes"] == {
        code: push_by_hand(margin) * (1 if winner == "D" else -1)
        for code, (winner, margin) in expected.items()
    }


def test_the_first_president_always_places_honeymoon_counters() -> None:
    """[1.6, 5.9] 2028 is an open seat: even a board winner of the placeholder party (D) is
    newly elected and marks every state it carried; a board re-elected under the same party in
    a later year places none, unless the term saw an impeachment."""
    key = next(k for k in map(str, range(100)) if board_only_presidency(k, 2028)[1] >= 268)
    carried, _ = board_only_presidency(key, 2028)
    expected = [1 if carried[str(row["code"])][0] == "D" else 0 for row in rows()]
    fresh_state = fresh(2, key)
    assert fresh_state.seats[0].holder == BOARD
    work = presidency_work(key, 2028, fresh_state.seats[0], first=True)
    roll_year_dice(work)
    event = resolve_presidency(work, [])
    assert event["winner"] == "D" and event["honeymoon"] is True
    assert work.honeymoon == expected

    again = presidency_work(key, 2028, Holding(BOARD, Party.D), first=False)
    roll_year_dice(again)
    assert resolve_presidency(again, [])["honeymoon"] is False
    assert again.honeymoon == [0] * 50
    impeached = presidency_work(key, 2028, Holding(BOARD, Party.D), first=False)
    impeached.impeached_this_term = True
    roll_year_dice(impeached)
    resolve_presidency(impeached, [])
    assert impeached.honeymoon == expected


def test_decay_moves_every_lean_one_pip_toward_zero_and_clears_counters() -> None:
    """[3.6, 6.5] 3 -> 2, -1 -> 0, 0 stays 0, -5 -> -4; honeymoon counters all removed."""
    state = fresh(2)
    lean = [3, -1, 0, -5] + [0] * 46
    honeymoon = [1, -1, 1, 0] + [0] * 46
    decayed, _ = finish_legislature(
        state.with_changes(lean=tuple(lean), honeymoon=tuple(honeymoon))
    )
    assert decayed.lean[:4] == (2, 0, 0, -4)
    assert decayed.honeymoon == (0,) * 50


def test_tag_vocabulary_order() -> None:
    """[1.3] The eleven tags in the design's order (draws index into this order)."""
    assert list(TAGS) == VOCABULARY


def test_senate_primary_and_general_recomputed_by_hand() -> None:
    """[5.3, 5.5, 5.6, 5.7, 5.9] Two players run under D for S-AZ-III (a board R seat in 2028).
    Primary: 2d6 + card part, no partisan term. General: the nominee against a board R generic
    (part 1, +1 as the seat's board incumbent) with P(AZ) = base 0 + lean 0 + the honeymoon
    counter of this year's presidential winner if it carried AZ."""
    key, race = "1000", "S-AZ-III"
    state = fresh(2, key)
    while state.phase is Phase.DRAFT:
        state, _ = advance(state, {s: DraftPick(state.packs[s][0]) for s in requested_seats(state)})
    cards = build_cards(key)
    assert state.seats[game_map().seat_by_id[race]] == Holding(BOARD, Party.R)
    chosen = [next(c for c in state.hands[seat] if c < 144) for seat in (0, 1)]
    entries = {
        seat: Declarations((Declaration(seat, race, chosen[seat], Party.D),)) for seat in (0, 1)
    }
    state, _ = advance(state, entries)  # type: ignore[arg-type]
    _, events = advance(state, {0: Withdrawals(()), 1: Withdrawals(())})
    event = next(e for e in events if e.get("race") == race)

    def part(card_id: int) -> int:
        card = cards[card_id]
        switch = 1 if card_id >= 72 else 0  # R-printed card declared under D
        return card.modifier + len(card.tags & {"hispanic", "suburban"}) - switch

    totals = {
        seat: d6(f"{key}:2028:prim:{race}:{seat}:0")
        + d6(f"{key}:2028:prim:{race}:{seat}:1")
        + part(chosen[seat])
        for seat in (0, 1)
    }
    tied, round_number = [0, 1], 0
    if totals[0] != totals[1]:
        tied = [max(totals, key=lambda s: totals[s])]
    while len(tied) > 1:
        rolls = {s: d6(f"{key}:2028:recount:{race}:D:{round_number}:{s}") for s in tied}
        tied = [s for s in tied if rolls[s] == max(rolls.values())]
        round_number += 1
    nominee = tied[0]
    primary = event["primaries"][0]
    assert [row["total"] for row in primary["entries"]] == [totals[0], totals[1]]
    assert primary["winner"] == nominee

    carried, d_votes = board_only_presidency(key, 2028)
    winner = "D" if d_votes >= 268 else "R"
    honeymoon = 0 if carried["AZ"][0] != winner else (1 if winner == "D" else -1)
    general = {
        party: d6(f"{key}:2028:nat:{party}")
        + d6(f"{key}:2028:state:{party}:AZ")
        + d6(f"{key}:2028:cand:{race}:{party}")
        for party in "DR"
    }
    general["D"] += part(chosen[nominee]) + honeymoon
    general["R"] += 2
    assert event["sides"]["D"]["total"] == general["D"]
    assert event["sides"]["R"]["total"] == general["R"]
    assert event["sides"]["D"]["player"] == nominee and event["sides"]["R"]["player"] == BOARD
    if general["D"] != general["R"]:
        assert event["winner"] == ("D" if general["D"] > general["R"] else "R")
        assert event["margin"] == abs(general["D"] - general["R"])


def test_pushes_apply_together_and_clamp_at_five() -> None:
    """[6.3, 6.4] AL: Senate D by 7 (+4) outranks the House, 4 + 4 stops at 5. AK: an R
    governor rides along with an R lean (-2), held at -5. AZ: D won 2 of 3 House races, its
    largest margin 2 pushes 3, so -5 + 3 = -2. AR: equal House wins push nothing."""
    work = presidency_work("1000", 2030, Holding(BOARD, Party.D), first=False)
    work.lean[:4] = [4, -5, -5, 1]
    work.pushes = {
        0: [(Office.SENATE, Party.D, 7), (Office.HOUSE, Party.R, 9)],
        1: [(Office.GOVERNOR, Party.R, 0)],
        2: [(Office.HOUSE, Party.D, 0), (Office.HOUSE, Party.D, 2), (Office.HOUSE, Party.R, 5)],
        3: [(Office.HOUSE, Party.D, 1), (Office.HOUSE, Party.R, 1)],
    }
    event = apply_pushes(work, [4, -5, -5, 1] + [0] * 46)
    assert work.lean[:4] == [5, -5, -2, 1]
    assert event["changes"] == {"AL": 1, "AK": 0, "AZ": 3}


def test_a_config_must_start_in_a_presidential_year() -> None:
    """[1.8, 7.2] The first year fills the presidency before any vote: 2029 is refused."""
    assert parse_model(BallotConfig, {"start_year": 2032}, "config").start_year == 2032
    with pytest.raises(InputError, match="start_year"):
        parse_model(BallotConfig, {"start_year": 2029}, "config")


def test_presidency_with_player_nominees_uses_fit_switch_and_base_only() -> None:
    """[5.8] Each state: N + S + C(P-ST) + m + fit(state tags) - switch, D adds base(s); no
    lean, honeymoon or incumbency, even for the seated card of a re-running president."""
    key = "2024"
    cards = build_cards(key)
    d_card = next(c for c in range(72) if cards[c].modifier == 1)  # printed D, runs D
    r_card = next(c for c in range(72) if cards[c].modifier == 2)  # printed D, runs R: switch
    work = presidency_work(key, 2032, Holding(0, Party.D, d_card), first=False)
    work.lean = [5] * 50
    work.honeymoon = [1] * 50
    roll_year_dice(work)
    entries = [
        Declaration(0, "P", d_card, Party.D),
        Declaration(1, "P", r_card, Party.R),
    ]
    event = resolve_presidency(work, entries)
    votes = {"D": 0, "R": 0}
    for contest, row in zip(event["states"], rows(), strict=True):
        code, tags = row["code"], set(row["tags"])  # type: ignore[call-overload]
        totals = {}
        for party, card_id, switch in (("D", d_card, 0), ("R", r_card, 1)):
            totals[party] = (
                d6(f"{key}:2032:nat:{party}")
                + d6(f"{key}:2032:state:{party}:{code}")
                + d6(f"{key}:2032:cand:P-{code}:{party}")
                + cards[card_id].modifier
                + len(cards[card_id].tags & tags)
                - switch
            )
        totals["D"] += int(row["base"])  # type: ignore[call-overload]
        assert (contest["D"], contest["R"]) == (totals["D"], totals["R"])
        votes[contest["winner"]] += int(row["ev"])  # type: ignore[call-overload]
    assert event["electoral_votes"] == votes
    assert event["winner"] == max(votes, key=lambda p: votes[p])
    assert event["honeymoon"] is (event["holder"] != 0)


def test_withdrawn_rerun_returns_its_cards_and_leaves_the_seat_to_the_board() -> None:
    """[4.5, 4.6] Withdrawing a re-run is retiring: card and district card back to hand, and
    with nobody left in the race the board takes the seat under the same party, unrolled."""
    state = fresh(2)
    gmap = game_map()
    race = "S-AZ-III"
    seated, district = 80, 144 + gmap.state_by_code["AZ"]
    seats = list(state.seats)
    seats[gmap.seat_by_id[race]] = Holding(0, Party.R, seated, district)
    entry = Declaration(0, race, seated, Party.R, district)
    state = state.with_changes(
        seats=tuple(seats), phase=Phase.WITHDRAW, declarations=(entry,), packs=()
    )
    after, events = advance(state, {0: Withdrawals((race,)), 1: Withdrawals(())})
    assert after.seats[gmap.seat_by_id[race]] == Holding(BOARD, Party.R)
    assert not [e for e in events if e.get("race") == race]
    assert {seated, district} <= set(after.hands[0])


def test_district_card_and_rerun_legality() -> None:
    """[4.3, 4.4] A district card only in its own state's Senate or governor race or its own
    House district, never for president; a re-run keeps exactly the seat's district card."""
    state = fresh(2)
    while state.phase is Phase.DRAFT:
        state, _ = advance(state, {s: DraftPick(state.packs[s][0]) for s in requested_seats(state)})
    cards = build_cards(state.key)
    gmap = game_map()
    candidate = next(c for c in state.hands[0] if c < 144)
    district = 144 + gmap.state_by_code["CA"]
    own_house = f"H-CA-{cards[district].district}"
    other_house = f"H-CA-{cards[district].district % 52 + 1}"
    state = state.with_changes(hands=(tuple(sorted({*state.hands[0], district})), state.hands[1]))

    def declare(race: str, card: int, extra: int) -> None:
        entry = Declaration(0, race, card, Party.D, extra)
        advance(state, {0: Declarations((entry,)), 1: Declarations(())})

    declare(own_house, candidate, district)  # legal
    declare("S-CA-III", candidate, district)  # legal: 2028 is a class III year
    for race in (other_house, "S-AZ-III", "P"):
        with pytest.raises(RuleError, match="does not belong"):
            declare(race, candidate, district)
    seats = list(state.seats)
    seats[gmap.seat_by_id["S-CA-III"]] = Holding(0, Party.D, 5, district)
    state = state.with_changes(seats=tuple(seats))
    declare("S-CA-III", 5, district)  # the re-run with its own district card
    with pytest.raises(RuleError, match="re-run keeps"):
        declare("S-CA-III", 5, -1)


def test_primary_recount_and_presidential_primary_addresses() -> None:
    """[5.5, 5.7, 5.8, 13] A tied primary recounts at (K, y, recount, race, party, round,
    player); the presidential primary rolls (K, y, prim, P, player, r) and adds m - switch."""
    for key in map(str, range(1001, 1021)):  # the first key whose first year has a tied primary
        _, events = play_game(
            CONFIG, key, make_bots(["pollster", "pollster", "machine", "machine"]), max_years=1
        )
        tied = [
            (e, p) for e in events if e["event"] == "race" for p in e["primaries"] if p["recount"]
        ]
        if tied:
            break
    cards = build_cards(key)
    race, primary = tied[0]
    first_round = primary["recount"][0]
    assert first_round == {
        side: d6(f"{key}:2028:recount:{race['race']}:{primary['party']}:0:{side}")
        for side in first_round
    }
    president = next(e for e in events if e["event"] == "presidency")
    assert president["primaries"]
    for primary in president["primaries"]:
        for entry in primary["entries"]:
            dice = [d6(f"{key}:2028:prim:P:{entry['player']}:{r}") for r in (0, 1)]
            printed = "D" if entry["card"] < 72 else "R"
            switch = 0 if printed == primary["party"] else 1
            assert entry["dice"] == dice
            assert entry["total"] == sum(dice) + cards[entry["card"]].modifier - switch
