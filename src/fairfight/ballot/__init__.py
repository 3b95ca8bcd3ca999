"""The ballot ruleset: an election card game resolved by exact, positionally drawn dice.

The engine is a pure step function (`new_game`, `requested_seats`, `advance`) over an
immutable `GameState`; players (bots, a terminal human, later a web client) answer its
requests; records replay event by event.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.ballot.advice import (
        DeclarationChance,
        declaration_chance,
        strongest_declarations,
    )
    from fairfight.ballot.advisor import ADVICE_OPTIMISES, Advice, AdviceSeat, advise
    from fairfight.ballot.bots import BOT_NAMES, Machine, Pollster, make_bots
    from fairfight.ballot.dice import RaceKind, certainty_edge, table, tie_chance, win_chance
    from fairfight.ballot.engine import advance, new_game, requested_seats
    from fairfight.ballot.geo import game_map
    from fairfight.ballot.guidance import (
        card_glossary,
        projected_votes,
        ratifying_ends_game_while_trailing,
    )
    from fairfight.ballot.human import TerminalHuman
    from fairfight.ballot.legislature import thresholds
    from fairfight.ballot.players import Player, play_game
    from fairfight.ballot.presidency import presidential_chance
    from fairfight.ballot.record import record_game, resume_game, verify_record
    from fairfight.ballot.revealed import revealed_chance
    from fairfight.ballot.rules_page import render_rules
    from fairfight.ballot.scoring import score_lines, scores
    from fairfight.ballot.seat_view import SeatView, seat_view
    from fairfight.ballot.state import GameState, Phase, state_from_data, state_to_data
    from fairfight.ballot.tables import (
        NAMED_CONFIGS,
        BallotConfig,
        Office,
        Party,
        Tag,
        VictoryMode,
        named_config,
    )

__all__ = [
    "ADVICE_OPTIMISES",
    "Advice",
    "AdviceSeat",
    "BOT_NAMES",
    "BallotConfig",
    "DeclarationChance",
    "GameState",
    "Machine",
    "NAMED_CONFIGS",
    "Office",
    "Party",
    "Phase",
    "Player",
    "Pollster",
    "RaceKind",
    "SeatView",
    "Tag",
    "TerminalHuman",
    "VictoryMode",
    "advance",
    "advise",
    "card_glossary",
    "certainty_edge",
    "declaration_chance",
    "game_map",
    "make_bots",
    "named_config",
    "new_game",
    "play_game",
    "presidential_chance",
    "projected_votes",
    "ratifying_ends_game_while_trailing",
    "record_game",
    "render_rules",
    "requested_seats",
    "resume_game",
    "revealed_chance",
    "score_lines",
    "scores",
    "seat_view",
    "state_from_data",
    "state_to_data",
    "strongest_declarations",
    "table",
    "thresholds",
    "tie_chance",
    "verify_record",
    "win_chance",
]

__getattr__ = lazy_exports(
    __name__,
    __all__,
    (
        "advice",
        "advisor",
        "bots",
        "dice",
        "engine",
        "geo",
        "guidance",
        "human",
        "legislature",
        "players",
        "presidency",
        "record",
        "revealed",
        "rules_page",
        "scoring",
        "seat_view",
        "state",
        "tables",
    ),
)

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
