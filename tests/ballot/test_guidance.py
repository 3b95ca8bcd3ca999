"""The seat's guidance values: the card glossary, a tag pair's projected votes, and the warning
that ratifying would end the game while the seat trails."""

from __future__ import annotations

from fairfight.ballot import legislature as leg
from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.guidance import (
    card_glossary,
    card_meaning,
    projected_votes,
    ratification_ends_game,
    ratifying_ends_game_while_trailing,
    scores_if_ratified,
)
from fairfight.ballot.scoring import scores
from fairfight.ballot.state import GameState, Holding, Phase
from fairfight.ballot.tables import BOARD, Office, named_config


def test_the_glossary_reads_the_deck_from_the_rules() -> None:
    text = {entry.term: entry.meaning for entry in card_glossary()}
    assert "0-71 are candidates printed D, 72-143 candidates printed R, 144-193" in text["#65"]
    assert "-1 (switch)" in text["D / R"]
    assert "always 3" in text["m3"] and "12 with m0, 24 with m1, 24 with m2, 12 with m3" in (
        text["m3"]
    )
    assert "+1 (ground game)" in text["CA-7 district"]
    cards = build_cards("1000")
    strongest = next(card for card in cards if card.is_candidate and card.modifier == 3)
    assert card_meaning(strongest).endswith("modifier 3, no tags")
    district = cards[-1]
    assert card_meaning(district).startswith(f"#{district.id}: the district card of WY-1")


def _play_until(key: str, phase: Phase, config_name: str = "as-written-plus") -> GameState:
    state, _ = new_game(named_config(config_name), key, 4)
    bots = make_bots(["pollster", "machine", "pollster", "machine"])
    while state.phase is not phase:
        answers = {seat: bots[seat].decide(state, seat) for seat in requested_seats(state)}
        state, _ = advance(state, answers)
    return state


def test_projected_votes_count_the_board_and_each_players_seats() -> None:
    state = _play_until("1000", Phase.AUTHOR)
    gmap = game_map()
    own_house = sum(
        1
        for info, holding in zip(gmap.seats, state.seats, strict=True)
        if info.office is Office.HOUSE and holding.holder == 0
    )
    players_senate = sum(
        1
        for info, holding in zip(gmap.seats, state.seats, strict=True)
        if info.office is Office.SENATE and holding.holder != BOARD
    )
    votes = projected_votes(state, 0, ("union", "rural"))
    assert votes.party is leg.majority_party(state, Office.HOUSE)
    board = leg.board_yes(state, votes.party, ("union", "rural"))
    assert (votes.board_house, votes.board_senate) == board
    assert votes.own_house == own_house
    assert votes.own_senate + votes.rivals_senate == players_senate
    assert (votes.needed_house, votes.needed_senate) == (218, 60)
    house, senate = votes.with_everyone()
    assert house == board[0] + sum(
        1
        for info, holding in zip(gmap.seats, state.seats, strict=True)
        if info.office is Office.HOUSE and holding.holder != BOARD
    )
    assert senate == board[1] + players_senate
    assert votes.passes_with_own() == (
        votes.with_own()[0] >= 218 and votes.with_own()[1] >= 60
    )


def test_ratifying_warns_only_when_it_ends_the_game_and_the_seat_trails() -> None:
    state = _play_until("1000", Phase.AUTHOR)
    assert ratification_ends_game(state)
    totals = scores(state)
    leader = max(range(4), key=lambda seat: totals[seat])
    trailing = min(range(4), key=lambda seat: totals[seat])
    assert totals[trailing] < totals[leader]
    tags = ("catholic", "evangelical", "jewish")
    # the amendment scores only for seated governor cards sharing a tag [8.6]
    assert scores_if_ratified(state, tags) >= totals
    assert ratifying_ends_game_while_trailing(state, trailing, tags)
    leader_after = scores_if_ratified(state, tags)
    best = max(leader_after)
    assert ratifying_ends_game_while_trailing(state, leader, tags) is (
        leader_after[leader] < best
    )
    points = state.with_changes(config=named_config("points"))
    assert not ratification_ends_game(points)
    assert not ratifying_ends_game_while_trailing(points, trailing, tags)
    # with nothing pending and no tags given there is nothing to warn about
    assert not ratifying_ends_game_while_trailing(state, trailing)


def test_a_ratified_amendment_scores_for_matching_seated_governors() -> None:
    state = _play_until("1000", Phase.AUTHOR)
    gmap = game_map()
    governor = next(
        index
        for index, info in enumerate(gmap.seats)
        if info.office is Office.GOVERNOR and state.seats[index].holder == BOARD
    )
    card = next(c for c in build_cards("1000") if c.is_candidate and len(c.tags) == 3)
    seats = list(state.seats)
    seats[governor] = Holding(1, card.party, card.id)
    held = state.with_changes(seats=tuple(seats))
    tags = tuple(sorted(card.tags))
    before = scores(held)
    after = scores_if_ratified(held, tags)
    assert after[1] - before[1] == held.config.score.amendment


def test_the_rules_page_carries_the_glossary() -> None:
    from fairfight.ballot.rules_page import render_rules

    page = render_rules()
    for entry in card_glossary():
        assert f"| `{entry.term}` | {entry.meaning} |" in page
