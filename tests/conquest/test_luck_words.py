"""The luck's words, on the hand-computed small season of test_season_luck."""

from __future__ import annotations

from fairfight.conquest import luck as words
from fairfight.conquest.record import season_luck
from tests.conquest.test_season_luck import SMALL_SEASON


def test_the_small_season_in_words() -> None:
    luck = season_luck.season_luck(SMALL_SEASON, "BB")
    season, champion, factions = words.luck_lines(luck, {"BB": "Bravo"})
    # One upset, expected 1/4 (0.25 reads 0.2, the half to even); P(at least one) = 1/4.
    assert season == ("1 upset in 3 battles; the chances said 0.2 on average; a season with "
                      "at least this many upsets happens about 1 time in 4")
    assert champion is not None and champion.title == "Bravo (BB), the champion"
    # BB: won 1, expected 7/4, so unlucky: P(at most 1) = 1/4. Before fan power 5/4.
    assert champion.sentence == ("won 1 of 2; the chances said 1.8 on average; "
                                 "a run at least this unlucky happens about 1 time in 4")
    assert champion.fan == ("without fan power the chances said 1.2 on average; "
                            "its own full pool secured 1 win")
    by_code = {lines.faction: lines for lines in factions}
    # AA: won 1, expected 3/4, so lucky: P(at least 1) = 5/8, about 6 in 10.
    assert by_code["AA"].sentence == ("won 1 of 2; the chances said 0.8 on average; "
                                      "a run at least this lucky happens about 6 times in 10")
    assert by_code["AA"].fan == "fan power did not change its chances"
    assert by_code["AA"].title == "AA"


def test_fewer_upsets_than_expected_read_the_lower_tail() -> None:
    run = {"battles": 2, "observed": 0, "expected": "1/2", "at_least": "0x1/0x1",
           "at_most": "0x9/0x10"}
    assert words.season_sentence(run) == (
        "0 upsets in 2 battles; the chances said 0.5 on average; a season with at most this "
        "many upsets happens about 6 times in 10")
