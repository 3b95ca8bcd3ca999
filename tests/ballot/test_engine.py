"""The engine: positional draws as section 13 addresses them, the deck, legality, scoring."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.players import play_game
from fairfight.ballot.scoring import score_lines, scores
from fairfight.ballot.state import (
    Declaration,
    Declarations,
    DraftPick,
    Phase,
    state_from_data,
    state_to_data,
)
from fairfight.ballot.tables import TAGS, Party, named_config
from fairfight.core.errors import RuleError
from fairfight.core.records import canonical_json
from tests.ballot.appendix_a import rows

CONFIG = named_config("as-written-plus")
BOTS = ["pollster", "machine", "pollster", "machine"]


def hash64(text: str) -> int:
    """The spec's draw, straight from hashlib: first 8 bytes of SHA-256, big-endian."""
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def d6(text: str) -> int:
    return 1 + (hash64(text) * 6 >> 64)


def test_worked_example_national_die_address() -> None:
    _, events = play_game(CONFIG, "1000", make_bots(BOTS), max_years=1)
    dice = next(e for e in events if e["event"] == "dice")
    assert dice["national"] == {"D": d6("1000:2028:nat:D"), "R": d6("1000:2028:nat:R")}
    codes = [r["code"] for r in rows()]
    assert dice["state"]["R"] == [d6(f"1000:2028:state:R:{code}") for code in codes]


def test_candidate_die_and_start_player_addresses() -> None:
    state, events = play_game(CONFIG, "77", make_bots(BOTS), max_years=1)
    assert events[0]["start_player"] == hash64("77:0:start") * 4 >> 64
    race = next(e for e in events if e["event"] == "race")
    for party in ("D", "R"):
        assert race["sides"][party]["candidate"] == d6(f"77:2028:cand:{race['race']}:{party}")
    president = next(e for e in events if e["event"] == "presidency")
    assert president["states"][0]["state"] == "AL"


def test_deck_composition() -> None:
    cards = build_cards("1000")
    assert len(cards) == 194
    for party, block in ((Party.D, range(72)), (Party.R, range(72, 144))):
        modifiers = [cards[i].modifier for i in block]
        assert modifiers == [0] * 12 + [1] * 24 + [2] * 24 + [3] * 12
        for i in block:
            assert cards[i].party is party
            assert cards[i].modifier + len(cards[i].tags) == 3
            assert cards[i].tags <= set(TAGS)
    appendix = rows()
    for number, row in enumerate(appendix):
        card = cards[144 + number]
        assert not card.is_candidate and card.state == number
        assert 1 <= card.district <= row["house"]  # type: ignore[operator]
        assert row["tags"][0] in card.tags and len(card.tags) == 2  # type: ignore[index]
        assert row["tags"][1] not in card.tags  # type: ignore[index]


def test_first_candidate_tag_follows_its_address() -> None:
    cards = build_cards("1000")
    # card 0 has m = 0, so three tags; the first is index below(11, x) of the vocabulary
    first = TAGS[hash64("1000:0:tag:0:0") * 11 >> 64]
    assert first in cards[0].tags


def test_setup_deals_sixteen_each_from_the_shuffled_deck() -> None:
    state, _ = new_game(CONFIG, "1000", 4)
    assert all(len(hand) == 16 for hand in state.hands)
    assert all(len(pack) == 8 for pack in state.packs)
    dealt = {card for hand in state.hands for card in hand}
    packed = {card for pack in state.packs for card in pack}
    assert len(dealt | packed | set(state.deck)) == 194
    assert state.phase is Phase.DRAFT


def test_illegal_decisions_are_refused() -> None:
    state, _ = new_game(CONFIG, "1000", 2)
    pack_card = state.packs[0][0]
    not_in_pack = next(c for c in range(194) if c not in state.packs[0])
    answers = {0: DraftPick(not_in_pack), 1: DraftPick(state.packs[1][0])}
    with pytest.raises(RuleError, match="not in the pack"):
        advance(state, answers)
    with pytest.raises(RuleError, match="has not answered"):
        advance(state, {0: DraftPick(pack_card)})
    while state.phase is Phase.DRAFT:
        state, _ = advance(state, {s: DraftPick(state.packs[s][0]) for s in requested_seats(state)})
    card = next(c for c in state.hands[0] if c < 144)
    stranger = next(c for c in range(144) if c not in state.hands[0])
    bad = [
        (Declaration(0, "H-CA-99", card, Party.D), "does not come up"),
        (Declaration(0, "G-NJ", card, Party.D), "does not come up"),
        (Declaration(0, "S-AZ-III", stranger, Party.D), "not a candidate card in your hand"),
        (Declaration(1, "S-AZ-III", card, Party.D), "your own candidates"),
    ]
    for entry, message in bad:
        with pytest.raises(RuleError, match=message):
            advance(state, {0: Declarations((entry,)), 1: Declarations(())})
    twice = Declarations((Declaration(0, "S-AZ-III", card, Party.D),) * 2)
    with pytest.raises(RuleError):
        advance(state, {0: twice, 1: Declarations(())})


def _state_after(key: str, years: int):  # type: ignore[no-untyped-def]
    state, _ = play_game(CONFIG, key, make_bots(BOTS), max_years=years)
    return state


@settings(max_examples=6, deadline=None, derandomize=True)
@given(key=st.integers(min_value=0, max_value=10**6), years=st.integers(min_value=1, max_value=3))
def test_scores_are_recomputed_from_a_saved_state(key: int, years: int) -> None:
    state = _state_after(str(key), years)
    saved = canonical_json(state_to_data(state))
    restored = state_from_data(json.loads(saved))
    assert restored == state
    assert scores(restored) == scores(state)
    assert score_lines(restored) == score_lines(state)
    assert canonical_json(state_to_data(restored)) == saved


def test_score_lines_read_only_what_is_held() -> None:
    state = _state_after("5", 2)
    for seat, line in enumerate(score_lines(state)):
        held = [h for h in state.seats if h.holder == seat]
        assert line.hand == len(state.hands[seat])
        assert line.house + line.senate + line.governor + line.presidency >= len(held)
        assert line.bills == 3 * sum(1 for b in state.bills if b.holder == seat)


def test_presidential_state_contests_record_their_candidate_dice() -> None:
    _, events = play_game(CONFIG, "31", make_bots(BOTS), max_years=1)
    president = next(e for e in events if e["event"] == "presidency")
    for contest in president["states"]:
        for party in ("D", "R"):
            expected = d6(f"31:2028:cand:P-{contest['state']}:{party}")
            assert contest["candidate"][party] == expected


def _pick_first_and_pass(state_packs: tuple[tuple[int, ...], ...]) -> dict[int, DraftPick]:
    return {seat: DraftPick(pack[0]) for seat, pack in enumerate(state_packs)}


def test_packs_pass_left_in_even_years_and_right_in_odd_years() -> None:
    """[3.1, 1.9] Left is the next higher seat: in 2028 seat s hands its pack to s + 1, in 2029
    to s - 1 (wrapping); the start player moves one seat left from the second year on."""
    players = 4
    state, _ = new_game(CONFIG, "1000", players)
    assert state.year == 2028 and state.phase is Phase.DRAFT
    before = state.packs
    after, _ = advance(state, _pick_first_and_pass(before))
    for seat in range(players):
        assert after.packs[(seat + 1) % players] == before[seat][1:]

    odd, _ = play_game(CONFIG, "1000", make_bots(BOTS), max_years=1)
    assert odd.year == 2029 and odd.phase is Phase.DRAFT
    assert odd.start_player == (state.start_player + 1) % players
    before = odd.packs
    after, _ = advance(odd, _pick_first_and_pass(before))
    for seat in range(players):
        assert after.packs[(seat - 1) % players] == before[seat][1:]
