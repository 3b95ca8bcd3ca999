"""The Discord command definitions and the result embed.

The definitions are checked against Discord's own rules for application commands (names of 1
to 32 lower-case letters, digits, `-` or `_`; descriptions of 1 to 100 characters; at most 25
options; required options before optional ones), written out here rather than taken from the
module, so a definition Discord would refuse fails the test.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fairfight.warscore import battle_json, demonstration_battle, score_battle
from fairfight.warscore.discord import (
    battle_embed,
    command_definitions,
    notice,
    war_embed,
    year_embed,
)
from fairfight.warscore.history import BattleStanding, NationStanding, WarStanding, YearStanding

NAME = re.compile(r"[-_a-z0-9]{1,32}")
ATTACHMENT, SUBCOMMAND = 11, 1


def _check_option(option: dict[str, Any]) -> None:
    assert NAME.fullmatch(option["name"]), option["name"]
    assert 1 <= len(option["description"]) <= 100, option["description"]
    inner = option.get("options", [])
    assert len(inner) <= 25
    required = [bool(o.get("required")) for o in inner]
    assert required == sorted(required, reverse=True), "required options come first"
    for child in inner:
        _check_option(child)


def test_the_definitions_are_what_discord_accepts(run: Any) -> None:
    result = run("discord-commands")
    assert result.exit_code == 0, result.output
    commands = json.loads(result.output)
    assert commands == command_definitions()
    assert [c["name"] for c in commands] == ["warscore"]
    for command in commands:
        assert command["type"] == 1  # a slash command
        _check_option(command)


def test_battle_takes_two_attachments_and_war_an_id() -> None:
    (command,) = command_definitions()
    sub = {o["name"]: o for o in command["options"]}
    assert {o["type"] for o in sub.values()} == {SUBCOMMAND}
    battle = {o["name"]: o["type"] for o in sub["battle"]["options"]}
    assert battle["attacker"] == battle["defender"] == ATTACHMENT
    assert "digest" in battle
    assert [(o["name"], o.get("required")) for o in sub["war"]["options"]] == [("war", True)]


def test_the_embed_carries_the_source_example_figures() -> None:
    battle = demonstration_battle()
    embed = battle_embed(battle_json(score_battle(battle, battle.year)),
                         "https://battles.example/warscore/r/abc", "abc")
    # Hand-computed in the source: Mordor 112.50, Gondor 175.53, 156%, Operational.
    assert embed["title"] == "Demonstration battle (land, year 3019)"
    values = [field["value"] for field in embed["fields"]]
    assert "**Total 112.50**" in values[0]
    assert "Troops 43.14 · Support 1.40 · Morale 1.55 · Defensives 1.25 · Technology 1.50" \
        in values[1]
    assert values[2] == "156%: Operational"
    assert embed["url"] == "https://battles.example/warscore/r/abc"
    assert embed["footer"] == {"text": "digest abc"}


def test_the_embed_stays_within_discords_limits() -> None:
    battle = demonstration_battle()
    result = battle_json(score_battle(battle, battle.year))
    result["battle"] = "B" * 400
    result["outcome"] = "O" * 5000
    embed = battle_embed(result)
    assert len(embed["title"]) == 256
    assert len(embed["description"]) == 4096
    assert "url" not in embed


def test_a_notice_is_one_private_line_that_mentions_no_one() -> None:
    data = notice("attacker: is not\nUTF-8 @everyone")
    assert data["content"] == "attacker: is not UTF-8 @everyone"
    assert data["flags"] == 64
    assert data["allowed_mentions"] == {"parse": []}
    assert "flags" not in notice("shown to all", private=False)


def test_a_year_embed_lists_each_nation_and_its_flags() -> None:
    document = {"war": {"name": "War of the Ring"}, "year": 3020, "result": {"nws": [
        {"nation": "Gondor", "total": 55, "sues_for_peace": False, "capitulates": False},
        {"nation": "Mordor", "total": -5, "sues_for_peace": True, "capitulates": True},
    ]}}
    embed = year_embed(document, "https://w.example/warscore/r/d", "d")
    assert embed["title"] == "War of the Ring: National War Scores, year 3020"
    assert [(f["name"], f["value"]) for f in embed["fields"]] == [
        ("Gondor", "NWS 55"),
        ("Mordor", "NWS -5 · must sue for peace or face revolt · capitulates")]


def _standing(battles: int) -> WarStanding:
    return WarStanding(
        "abc", "Long war", "Mod", (1, 2),
        (NationStanding("A", "North", None), NationStanding("B", "South", None, 2)),
        (YearStanding(1, {"A": 40, "B": 12}, "d1"),),
        tuple(BattleStanding(i, 1, f"Battle {i} " + "x" * 80, "land", "A", "B", "A",
                             "solid", 130, "Solid Victory for A", f"d{i}")
              for i in range(1, battles + 1)))


def test_a_war_embed_keeps_the_latest_battles_within_the_limits() -> None:
    embed = war_embed(_standing(40), "https://w.example/warscore/wars/abc")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Nations"] == "A (North)\nB (South): capitulated in 2"
    assert fields["National War Scores"] == "1: A 40 · B 12"
    battles = fields["Battles"]
    assert len(battles) <= 1024
    assert battles.startswith("…\n")
    assert battles.splitlines()[-1].startswith("Round 40, 1, Battle 40 ")
    assert "Round 30," not in battles  # only the latest ten are listed


def test_a_naval_embed_says_the_naval_rules_are_the_projects_own() -> None:
    battle = demonstration_battle()
    result = battle_json(score_battle(battle, battle.year))
    result["kind"] = "naval"
    footer = battle_embed(result, digest="abc")["footer"]["text"]
    assert "naval rules are fairfight's own" in footer
    assert footer.endswith("digest abc")
