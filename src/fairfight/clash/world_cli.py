"""Commands of the clash world: play, turn, board, attack, replay, playtest, schema.

Each parses its arguments, calls one library function and renders the result; bad input is
one line naming the field and exit 2, a replay that does not match exits 1. The engine is
imported only when a command runs, so `fairfight clash --help` stays quick.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from fairfight.clash.workload import DEFAULT_TURN_WORK, MAX_TURN_WORK
from fairfight.console import console, emit_json, error_console, guarded
from fairfight.core.errors import InputError
from fairfight.core.validation import is_plain_digits
from fairfight.inputs import load_yaml

if TYPE_CHECKING:
    from fairfight.clash.orders import TurnOrders
    from fairfight.clash.record import GameRecord
    from fairfight.clash.world import World

__all__ = [
    "JSON_HELP",
    "register",
]

JSON_HELP = "Print JSON (one line)."
_MAX_WORK = typer.Option(
    DEFAULT_TURN_WORK, "--max-work", min=1, max=MAX_TURN_WORK,
    help="Most work units a turn may take (AI plans plus order steps, about 0.3 ms and 3 KB "
         "each): over it the AI weighs fewer supporters, then the turn is refused.")


def _ai_players(world: World, choice: str) -> tuple[str, ...]:
    players = list(world.sides)
    if choice == "all":
        return tuple(players)
    if choice == "none":
        return ()
    aliases = {f"p{i + 1}": player for i, player in enumerate(players)}
    chosen = []
    for name in choice.split(","):
        player = aliases.get(name.strip(), name.strip())
        if player not in players:
            raise InputError("--ai", f"unknown player {name!r}; use all, none, p1, p2 or one "
                             "of " + ", ".join(players))
        chosen.append(player)
    return tuple(chosen)


def _save(record: GameRecord, path: Path) -> None:
    """Write beside the target, then rename: a failure never leaves half a record."""
    partial = path.with_name(path.name + ".partial")
    record.save(partial)
    os.replace(partial, path)


def _summary(events: list[dict[str, Any]], before: World, after: World) -> str:
    """A clash as its figures; what follows from it (retreats, routs, captures...) in words,
    with every name (the command line plays with the whole truth)."""
    from fairfight.clash.words import describe, name_book

    book = name_book([before, after], None)
    lines = []
    for event in events:
        kind = event["event"]
        if kind == "clash":
            o = event["outcome"]
            lines.append(f"  clash {event['initiator']} -> {event['plan']['defender']} "
                         f"({o['spec']['kind']}, r {event['r']}): A {o['a']} : D {o['d']}, "
                         f"they lose {o['ld']}, we lose {o['la']}, {o['fate']}")
        elif kind in ("retreat", "rout", "advance", "capture", "destroyed", "disengage",
                      "hold_shaken", "caught"):
            lines.append(f"  {describe(event, book)}")
    return "\n".join(lines)


def _play_turn(record: GameRecord, world: World, given: TurnOrders | None,
               quiet: bool, max_work: int) -> tuple[World, list[dict[str, Any]]]:
    from fairfight.clash.ai import ai_orders
    from fairfight.clash.record import merge_orders
    from fairfight.clash.workload import plan_turn_work

    players = [player for player in record.ai_players
               if given is None or given.player != player]
    orders = given.model_dump(mode="json", exclude_none=True)["orders"] if given else {}
    work = plan_turn_work(world, players, orders, max_work)
    if work.support_choices is not None and not quiet:
        error_console.print(
            f"turn {world.turn}: a dense front; the AI weighs the {work.support_choices} "
            f"strongest supporters of each assault ({work.plans:,} plans; --max-work "
            "raises the budget for the full search)", markup=False)
    parts = [ai_orders(world, player, work.support_choices) for player in players]
    if given is not None:
        parts.append(given)   # a unit named in the file follows the file, not the AI
    result = record.play(world, merge_orders(parts))
    if not quiet:
        clashes = sum(1 for e in result.events if e["event"] == "clash")
        console.print(f"turn {world.turn}: {clashes} clashes", markup=False)
        text = _summary(result.events, world, result.world)
        if text:
            console.print(text, markup=False)
    return result.world, result.events


def _play(
    scenario: Path = typer.Argument(..., help="Scenario file (YAML or JSON)."),
    turns: int = typer.Option(1, min=0, max=500, help="Turns to play now."),
    ai: str = typer.Option("all", help="Players the AI plays: all, none, p1, p2 or ids."),
    record: Path = typer.Option(..., "--record", help="Game record to create (JSON Lines)."),
    max_work: int = _MAX_WORK,
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Start a game from a scenario and play turns; players not given to the AI stand."""
    from fairfight.clash.ending import game_end
    from fairfight.clash.record import GameRecord
    from fairfight.clash.scenario import load_scenario
    from fairfight.inputs import check_output_file

    if record.exists():
        raise InputError("--record", f"{record} exists; choose a new file (nothing is "
                         "overwritten)")
    check_output_file(record, may_exist=False)
    game = GameRecord(load_scenario(scenario))
    world = game.start()
    game.ai_players = _ai_players(world, ai)
    for _ in range(turns):
        if game_end(world) is not None:   # the scenario's victory conditions: no more turns
            break
        world, _events = _play_turn(game, world, None, as_json, max_work)
    _save(game, record)
    end = game_end(world)
    if as_json:
        emit_json({"record": str(record), "turns": len(game.turns),
                   "ai_players": list(game.ai_players),
                   "result": end.to_json() if end is not None else None})
    else:
        console.print(f"recorded {len(game.turns)} turns in {record}", markup=False)
        if end is not None:
            console.print(f"game over after turn {end.turn}: {end.words}", markup=False)


def _turn(
    game_file: Path = typer.Argument(..., help="Game record."),
    orders: Path = typer.Option(None, "--orders",
                                help="Orders (YAML or JSON); without it, only the AI's."),
    max_work: int = _MAX_WORK,
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Play one turn: the file's orders, plus the AI's for the players it plays."""
    from fairfight.clash.ending import game_end
    from fairfight.clash.orders import parse_orders
    from fairfight.clash.record import load_record

    game = load_record(game_file)
    world = game.world()
    end = game_end(world)
    if end is not None:
        raise InputError(str(game_file), f"the game is over after turn {end.turn} ({end.words}); "
                         "it can only be replayed")
    given = parse_orders(world, load_yaml(orders)) if orders is not None else None
    _, events = _play_turn(game, world, given, as_json, max_work)
    _save(game, game_file)
    if as_json:
        emit_json({"turn": world.turn, "events": events})


def _board(
    game_file: Path = typer.Argument(..., help="Game record."),
    player: str = typer.Option(None, help="Show what this player knows."),
    overlay: bool = typer.Option(False, "--overlay", help="Add the hostile-tile overlay."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """A text map of the game now: units, Stances, and the overlay of a player."""
    from fairfight.clash.board_text import board_text
    from fairfight.clash.knowledge import overlay_data, player_view
    from fairfight.clash.record import load_record

    world = load_record(game_file).world()
    if player is not None and player not in world.sides:
        raise InputError("--player", f"unknown player {player!r}")
    if overlay and player is None:
        raise InputError("--overlay", "name the player whose overlay to show (--player)")
    if as_json:   # one shape with and without --player: the truth is a view too
        emit_json({**player_view(world, player),
                   "overlay": overlay_data(world, player) if overlay and player else None})
        return
    console.print(board_text(world, player, overlay), markup=False, end="")


def _attack(
    game_file: Path = typer.Argument(..., help="Game record."),
    player: str = typer.Option(..., help="The attacking player."),
    lead: str = typer.Option(..., help="Lead unit id."),
    target: str = typer.Option(..., help="Target tile as X,Y."),
    supporters: str = typer.Option(None, help="Supporter ids, comma-separated (default auto)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """The attack panel for one assault, from what the player knows."""
    from fairfight.clash.board_attack import attack_preview
    from fairfight.clash.record import load_record

    x, _, y = target.partition(",")
    if not (is_plain_digits(x.strip()) and is_plain_digits(y.strip())):
        raise InputError("--target", "write the tile as X,Y, for example 3,4", target)
    chosen = None if supporters is None else tuple(s for s in supporters.split(",") if s)
    result = attack_preview(load_record(game_file).world(), player, lead, (int(x), int(y)),
                            chosen)
    if as_json:
        emit_json(result)
    else:
        console.print(result["panel"], markup=False, end="")


def _replay(
    game_file: Path = typer.Argument(..., help="Game record."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Re-run a recorded game and check every event byte for byte."""
    from fairfight.clash.record import load_record, replay_record

    turns = replay_record(load_record(game_file))
    if as_json:
        emit_json({"turns": turns, "matches": True})
    else:
        console.print(f"replayed {turns} turns: every event matches", markup=False)


def _playtest(
    games: int = typer.Option(200, min=1, max=100_000, help="Games to play."),
    jobs: int = typer.Option(1, min=1, max=64, help="Processes to use."),
    turns: int = typer.Option(12, min=1, max=200, help="Turns per game."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="A dask.distributed scheduler address (tcp://host:8786)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """AI-against-AI games measuring the playtest metrics, each with its interval and band."""
    from fairfight.clash.playtest import playtest_table, run_playtest
    from fairfight.core.executor import executor_for

    report = run_playtest(games, jobs=jobs, turns=turns,
                          executor=executor_for(1, scheduler) if scheduler is not None else None)
    if as_json:
        emit_json(report)
    else:
        console.print(playtest_table(report), markup=False, end="")


def _schema(
    kind: str = typer.Option("scenario", "--kind",
                             help="scenario, orders, record (one line of it) or outcome."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Print the JSON Schema of a scenario, a turn's orders, a record line or an outcome
    (indented; --json for one line)."""
    from fairfight.clash.schemas import SCHEMA_KINDS, json_schema

    if kind not in SCHEMA_KINDS:
        raise InputError("--kind", f"must be one of {', '.join(SCHEMA_KINDS)}", kind)
    schema = json_schema(kind)
    if as_json:
        emit_json(schema)
    else:
        typer.echo(json.dumps(schema, indent=2, sort_keys=True))


def register(app: typer.Typer) -> None:
    """Add the world's commands to the clash command line."""
    for command in (_play, _turn, _board, _attack, _replay, _playtest, _schema):
        app.command(command.__name__.lstrip("_"))(guarded(command))
