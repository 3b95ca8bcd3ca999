"""The two play-testing bots of the design, and the factory that seats players by name [11]."""

from __future__ import annotations

from collections.abc import Sequence

from fairfight.ballot.machine import Machine, machine_homes
from fairfight.ballot.players import Player
from fairfight.ballot.pollster import Pollster
from fairfight.core.errors import InputError

BOT_NAMES: tuple[str, ...] = ("pollster", "machine")


def make_bots(names: Sequence[str]) -> list[Player]:
    """Fresh bot players for the seats named, e.g. `pollster,machine,pollster,machine`."""
    for number, name in enumerate(names):
        if name not in BOT_NAMES:
            raise InputError(
                f"players[{number}]", f"unknown bot {name!r}; bots are {', '.join(BOT_NAMES)}"
            )
    machines = [seat for seat, name in enumerate(names) if name == "machine"]
    shared = Machine(machines)
    return [shared if name == "machine" else Pollster() for name in names]


__all__ = ["BOT_NAMES", "Machine", "Pollster", "machine_homes", "make_bots"]
