"""Rule details on hand-built states: board votes, holders, pushes, lean ownership, endings."""

from __future__ import annotations

import hashlib

from fairfight.ballot import legislature as leg
from fairfight.ballot.bots import make_bots
from fairfight.ballot.elections import _state_push
from fairfight.ballot.engine import new_game
from fairfight.ballot.geo import game_map
from fairfight.ballot.players import play_game
from fairfight.ballot.scoring import leaning_owner, score_lines
from fairfight.ballot.state import Holding, PresidentialWin
from fairfight.ballot.tables import BOARD, Office, Party, VictoryMode, lean_push, named_config
from fairfight.ballot.yearend import _earned_end

CONFIG = named_config("as-written-plus")


def fresh(players: int = 4):  # type: ignore[no-untyped-def]
    state, _ = new_game(CONFIG, "1000", players)
    return state


def test_lean_push_table() -> None:
    assert [lean_push(m) for m in range(7)] == [2, 2, 3, 3, 4, 4, 4]


def test_push_order_and_governor_rule() -> None:
    house = [(Office.HOUSE, Party.D, 1), (Office.HOUSE, Party.D, 5), (Office.HOUSE, Party.R, 9)]
    assert _state_push(house, 0) == 4  # D won more House races; its largest margin 5 -> 4
    assert _state_push([*house, (Office.HOUSE, Party.R, 0)], 0) == 0  # equal counts
    assert _state_push([(Office.SENATE, Party.R, 2), *house], 0) == -3  # Senate outranks House
    governor = [(Office.GOVERNOR, Party.D, 3)]
    assert _state_push(governor, 0) == 0  # never starts a lean
    assert _state_push(governor, -2) == 0  # never reverses one
    assert _state_push(governor, 1) == 3  # rides along with it


def test_board_support_formula() -> None:
    state = fresh()
    gmap = game_map()
    seat = gmap.seat_by_id["S-AL-II"]  # board R, AL tags evangelical + black, lean 0
    assert state.seats[seat] == Holding(BOARD, Party.R)
    assert leg.board_support(state, seat, Party.R, ("evangelical", "black")) == 3
    assert leg.board_support(state, seat, Party.D, ("evangelical", "farm")) == 0
    assert leg.board_support(state, seat, Party.D, ("evangelical", "black")) == 1
    lean = list(state.lean)
    lean[gmap.state_by_code["AL"]] = -2
    leaned = state.with_changes(lean=tuple(lean))
    assert leg.board_support(leaned, seat, Party.D, ("evangelical", "black")) == 0
    assert not leg.board_votes_yes(leaned, seat, Party.D, ("evangelical", "black"))


def test_holder_needs_more_than_half_the_player_weight() -> None:
    assert leg.Tally(300, 70, (5, 3, 2, 0)).holder(author=2) == 2  # 5 of 10 is not more
    assert leg.Tally(300, 70, (6, 3, 1, 0)).holder(author=2) == 0
    assert leg.Tally(300, 70, (0, 0, 0, 0)).holder(author=3) == 3


def test_tally_weights_majority_seats_double() -> None:
    state = fresh(2)
    gmap = game_map()
    seats = list(state.seats)
    house_d = gmap.seat_by_id["H-CA-1"]  # D seat in a D House: weight 2
    house_r = gmap.seat_by_id["H-TX-30"]  # R seat in the D House: weight 1
    senate_r = gmap.seat_by_id["S-TX-I"]  # R seat in the R Senate: weight 2
    seats[house_d] = Holding(0, Party.D, 10)
    seats[house_r] = Holding(0, Party.R, 80)
    seats[senate_r] = Holding(1, Party.R, 81)
    state = state.with_changes(seats=tuple(seats))
    assert leg.majority_party(state, Office.HOUSE) is Party.D
    assert leg.majority_party(state, Office.SENATE) is Party.R
    result = leg.tally(state, Party.D, ("union", "farm"), (True, True))
    assert result.weights == (3, 2)


def test_leaning_state_needs_a_strict_top_holder() -> None:
    state = fresh(2)
    gmap = game_map()
    nv = gmap.state_by_code["NV"]
    lean = list(state.lean)
    lean[nv] = 2
    seats = list(state.seats)
    nv_seats = gmap.state_seats[nv]
    seats[nv_seats[2]] = Holding(0, Party.D, 5)  # a House seat of the lean's party
    state = state.with_changes(lean=tuple(lean), seats=tuple(seats))
    assert leaning_owner(state, nv) == 0
    seats[nv_seats[3]] = Holding(1, Party.D, 6)
    tied = state.with_changes(seats=tuple(seats))
    assert leaning_owner(tied, nv) == BOARD
    seats[nv_seats[4]] = Holding(1, Party.R, 90)  # wrong party: does not count
    assert leaning_owner(tied.with_changes(seats=tuple(seats)), nv) == BOARD
    line = score_lines(state)[0]
    assert line.leaning_states == 1 and line.house == 1


def test_endings_by_mode() -> None:
    state = fresh(2).with_changes(year=2036)
    wins = (PresidentialWin(0, 2032), PresidentialWin(0, 2036))
    two = state.with_changes(
        config=named_config("as-written-plus", "two-terms"), presidential_wins=wins
    )
    assert _earned_end(two, (10, 20)) == ("two-terms", (0,))
    voided = two.with_changes(presidential_wins=(PresidentialWin(0, 2032, True), wins[1]))
    assert _earned_end(voided, (10, 20)) == ("", ())
    three = two.with_changes(config=named_config("as-written-plus", "three-terms"))
    assert _earned_end(three, (10, 20)) == ("", ())
    bills = state.with_changes(config=named_config("as-written-plus", "bills"), authored=(8, 3))
    assert _earned_end(bills, (1, 2)) == ("bills", (0,))
    both = state.with_changes(
        config=named_config("as-written-plus", "parallel"), authored=(0, 8), presidential_wins=wins
    )
    assert _earned_end(both, (30, 20)) == ("bills-and-terms", (0,))
    assert VictoryMode.POINTS.value == "points"
    assert _earned_end(
        state.with_changes(config=named_config("as-written-plus", "points"), authored=(9, 9)),
        (1, 1),
    ) == ("", ())


def test_recount_and_primary_dice_follow_their_addresses() -> None:
    def d6(text: str) -> int:
        digest = hashlib.sha256(text.encode("ascii")).digest()
        return 1 + (int.from_bytes(digest[:8], "big") * 6 >> 64)

    _, events = play_game(CONFIG, "1000", make_bots(["pollster", "machine"] * 2))
    primaries = [(e, p) for e in events if e["event"] == "race" for p in e["primaries"]]
    assert primaries
    race, primary = primaries[0]
    for entry in primary["entries"]:
        expected = [
            d6(f"1000:{race['year']}:prim:{race['race']}:{entry['player']}:{r}") for r in (0, 1)
        ]
        assert entry["dice"] == expected
    recounts = [e for e in events if e["event"] == "race" and e["recount"]]
    assert recounts
    race = recounts[0]
    first = race["recount"][0]
    assert first == {
        side: d6(f"1000:{race['year']}:recount:{race['race']}:G:0:{side}") for side in ("D", "R")
    }


def test_every_victory_mode_has_a_named_config() -> None:
    for mode in VictoryMode:
        name = "as-written-plus" if mode is VictoryMode.AMENDMENT else mode.value
        assert named_config(name).victory is mode
    assert named_config("points", "bills").victory is VictoryMode.BILLS
