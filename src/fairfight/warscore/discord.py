"""The war score on Discord: the slash commands a server registers, and a result as an embed.

Discord shows a command's answer as an embed: a title, a short description, a few fields and
a link. Every number in an embed is a string `battle_json` made, so a result reads the same on
Discord as in the forum post and on the command line; this module only arranges them.
"""

from __future__ import annotations

from typing import Any

from fairfight.warscore.forum import NAVAL_NOTE
from fairfight.warscore.history import WarStanding

__all__ = [
    "COMMAND_NAME",
    "EMBED_COLOUR",
    "SHEET_OPTIONS",
    "SHOWN_BATTLES",
    "SHOWN_YEARS",
    "battle_embed",
    "command_definitions",
    "notice",
    "war_embed",
    "year_embed",
]

COMMAND_NAME = "warscore"
"""The one top-level slash command; `battle` and `war` are its subcommands."""
SHEET_OPTIONS = ("attacker", "defender")
"""The two attachment options of `/warscore battle`, one army sheet each."""
EMBED_COLOUR = 0x8B2E2E
"""The embed's side stripe: the war score pages' dark red."""

_SUBCOMMAND, _STRING, _INTEGER, _ATTACHMENT = 1, 3, 4, 11
"""Discord's application command option types used here."""
_CHAT_INPUT = 1
_EPHEMERAL = 1 << 6
_TITLE_MAX, _DESCRIPTION_MAX, _FIELD_NAME_MAX, _FIELD_VALUE_MAX = 256, 4096, 256, 1024
"""Discord refuses a whole message whose embed breaks one of its length limits."""
SHOWN_YEARS = 10
"""A war's standing lists its latest years' scores, at most this many (an embed is short)."""
SHOWN_BATTLES = 10
"""... and its latest published battles, at most this many; the war's page has them all."""
_TIERS = {"marginal": "Marginal", "solid": "Solid", "operational": "Operational",
          "strategic": "Strategic"}


def _option(kind: int, name: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": description, **extra}


def _battle_options() -> list[dict[str, Any]]:
    """Every option is optional to Discord: two sheets or a digest, checked by the service."""
    return [
        _option(_ATTACHMENT, "attacker", "The attacker's army sheet (YAML or JSON file)."),
        _option(_ATTACHMENT, "defender", "The defender's army sheet (YAML or JSON file)."),
        _option(_INTEGER, "year", "The year the battle is fought in (with two sheets).",
                min_value=-1_000_000, max_value=1_000_000),
        _option(_STRING, "name", "The battle's name (with two sheets).",
                min_length=1, max_length=120),
        _option(_STRING, "kind", "Land or naval (with two sheets; land by default).",
                choices=[{"name": "land", "value": "land"}, {"name": "naval", "value": "naval"}]),
        _option(_STRING, "digest", "A published result's digest, instead of two sheets.",
                min_length=64, max_length=64),
    ]


def command_definitions() -> list[dict[str, Any]]:
    """The commands to register with Discord (the body of a bulk overwrite of the
    application's commands): one `/warscore` with the subcommands `battle` and `war`."""
    return [{
        "type": _CHAT_INPUT,
        "name": COMMAND_NAME,
        "description": "Score a battle by the forum war algorithm, or show a war's standing.",
        "options": [
            _option(_SUBCOMMAND, "battle",
                    "Score a battle from two army sheets, or show a published result.",
                    options=_battle_options()),
            _option(_SUBCOMMAND, "war", "The standing of a war kept on this service.",
                    options=[_option(_STRING, "war", "The war's id (from its moderator link).",
                                     required=True, min_length=1, max_length=32)]),
        ],
    }]


def _clip(text: str, limit: int) -> str:
    """Text within one of Discord's limits, cut with an ellipsis when longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _army_field(role: str, army: dict[str, Any]) -> dict[str, Any]:
    """One army's five factors and total, as the forum post lists them."""
    defensives = army.get("defensives") or "N/A"
    value = (f"Troops {army['troops']} · Support {army['support']} · Morale {army['morale']}"
             f" · Defensives {defensives} · Technology {army['technology']}\n"
             f"**Total {army['total']}**")
    return {"name": _clip(f"{role}: {army['nation']}", _FIELD_NAME_MAX),
            "value": _clip(value, _FIELD_VALUE_MAX), "inline": False}


def battle_embed(result: dict[str, Any], link: str | None = None,
                 digest: str | None = None) -> dict[str, Any]:
    """A scored battle (`battle_json`'s dictionary) as a Discord embed: the outcome, both
    armies' factors, the ratio and tier, and the result's permanent link when it has one."""
    tier = result.get("tier")
    verdict = (f"{result['percent']}%: {_TIERS[tier]}" if tier in _TIERS
               else f"{result['percent']}%")
    fields = [_army_field("Attacker", result["attacker"]),
              _army_field("Defender", result["defender"]),
              {"name": "Result", "value": _clip(verdict, _FIELD_VALUE_MAX), "inline": False}]
    if link:
        fields.append({"name": "Result page", "value": _clip(link, _FIELD_VALUE_MAX),
                       "inline": False})
    embed: dict[str, Any] = {
        "title": _clip(f"{result['battle']} ({result['kind']}, year {result['year']})",
                       _TITLE_MAX),
        "description": _clip(str(result["outcome"]), _DESCRIPTION_MAX),
        "color": EMBED_COLOUR,
        "fields": fields,
    }
    if link:
        embed["url"] = link
    footer = [NAVAL_NOTE] if result.get("kind") == "naval" else []
    footer += [f"digest {digest}"] if digest else []
    if footer:
        embed["footer"] = {"text": _clip(" · ".join(footer), 2048)}
    return embed


def notice(text: str, *, private: bool = True) -> dict[str, Any]:
    """A one-line answer without an embed (a refusal, or "not available"); private answers
    are shown only to the person who typed the command."""
    data: dict[str, Any] = {"content": _clip(" ".join(text.split()), 2000),
                            "allowed_mentions": {"parse": []}}
    if private:
        data["flags"] = _EPHEMERAL
    return data


def year_embed(document: dict[str, Any], link: str, digest: str) -> dict[str, Any]:
    """A published year of a stored war (its result document) as an embed: each nation's
    National War Score and whether it must sue for peace or capitulates."""
    fields = []
    for entry in document["result"]["nws"]:
        flags = [text for key, text in (("sues_for_peace", "must sue for peace or face revolt"),
                                        ("capitulates", "capitulates")) if entry.get(key)]
        value = f"NWS {entry['total']}" + "".join(f" · {flag}" for flag in flags)
        fields.append({"name": _clip(str(entry["nation"]), _FIELD_NAME_MAX),
                       "value": _clip(value, _FIELD_VALUE_MAX), "inline": True})
    return {"title": _clip(f"{document['war']['name']}: National War Scores, year "
                           f"{document['year']}", _TITLE_MAX),
            "url": link, "color": EMBED_COLOUR, "fields": fields[:25],
            "footer": {"text": f"digest {digest}"}}


def _lines(lines: list[str], empty: str) -> str:
    """Lines for one field, the latest kept when they do not all fit."""
    text = "\n".join(lines) or empty
    while len(text) > _FIELD_VALUE_MAX and len(lines) > 1:
        lines = lines[1:]
        text = "\n".join(["…", *lines])
    return _clip(text, _FIELD_VALUE_MAX)


def war_embed(standing: WarStanding, link: str) -> dict[str, Any]:
    """A stored war's standing as an embed: its nations and sides, the latest years' National
    War Scores and the latest published battles, each as the war's record holds them."""
    nations = [f"{n.name} ({n.side})" + (f": capitulated in {n.capitulated_in}"
                                          if n.capitulated_in is not None else "")
               for n in standing.nations]
    years = [f"{y.year}: " + " · ".join(f"{nation} {total}" for nation, total in y.scores.items())
             for y in standing.years[-SHOWN_YEARS:]]
    battles = [f"Round {b.round}, {b.year}, {b.battle}: {b.outcome}"
               + (f" ({b.percent}%)" if b.percent is not None else "")
               for b in standing.battles[-SHOWN_BATTLES:]]
    planned = standing.years_planned
    span = f"{planned[0]} to {planned[-1]}" if planned else "none planned"
    return {
        "title": _clip(f"{standing.name}: standing", _TITLE_MAX),
        "url": link,
        "description": _clip(f"Moderated by {standing.moderator}. Years {span}.",
                             _DESCRIPTION_MAX),
        "color": EMBED_COLOUR,
        "fields": [
            {"name": "Nations", "value": _lines(nations, "none"), "inline": False},
            {"name": "National War Scores", "value": _lines(years, "no year published yet"),
             "inline": False},
            {"name": "Battles", "value": _lines(battles, "no battle published yet"),
             "inline": False},
        ],
        "footer": {"text": f"war {standing.war_id}"},
    }
