"""The byte-capped cache: eviction by bytes in least-recently-used order, an entry heavier
than the budget refused, the budget held under many puts and many threads; and `deep_size`."""

from __future__ import annotations

import random
import sys
import threading
from dataclasses import dataclass

import pytest

from fairfight.web.byte_cache import ByteCappedCache, deep_size


def _cache(max_bytes: int) -> ByteCappedCache[str, bytes]:
    return ByteCappedCache(max_bytes, len)


def test_the_least_recently_used_go_first_once_the_bytes_pass_the_budget() -> None:
    cache = _cache(100)
    for key in "abc":
        assert cache.put(key, b"x" * 30)
    assert cache.bytes_used == 90 and len(cache) == 3
    assert cache.get("a") == b"x" * 30  # a is now the most recently used: b goes first
    assert cache.put("d", b"y" * 30)
    assert cache.get("b") is None
    assert [cache.get(key) is not None for key in "acd"] == [True, True, True]
    assert cache.bytes_used == 90
    assert cache.put("e", b"z" * 70)  # 160 bytes: a and c (the oldest now) make room
    assert cache.get("a") is None and cache.get("c") is None
    assert cache.get("d") == b"y" * 30 and cache.get("e") == b"z" * 70
    assert cache.bytes_used == 100 and len(cache) == 2


def test_replacing_a_value_counts_only_the_new_one() -> None:
    cache = _cache(100)
    cache.put("a", b"x" * 60)
    cache.put("a", b"x" * 10)
    assert cache.bytes_used == 10 and len(cache) == 1 and cache.get("a") == b"x" * 10


def test_an_entry_heavier_than_the_budget_is_not_kept() -> None:
    cache = _cache(100)
    cache.put("small", b"s" * 40)
    cache.put("big", b"b" * 50)
    assert not cache.put("big", b"b" * 101)  # refused: the old value for the key goes too
    assert cache.get("big") is None
    assert cache.get("small") == b"s" * 40 and cache.bytes_used == 40
    assert cache.put("exact", b"e" * 60)  # exactly the budget is kept
    assert cache.bytes_used == 100


def test_a_large_key_is_weighed_when_asked() -> None:
    cache: ByteCappedCache[str, bytes] = ByteCappedCache(100, len, key_size_of=len)
    assert cache.put("k" * 20, b"v" * 30)
    assert cache.bytes_used == 50
    assert not cache.put("k" * 80, b"v" * 30)


def test_a_default_tells_a_kept_none_from_a_miss() -> None:
    cache: ByteCappedCache[str, None] = ByteCappedCache(100, lambda value: 1)
    missing = object()
    assert cache.get("a", missing) is missing
    cache.put("a", None)
    assert cache.get("a", missing) is None


def test_the_budget_holds_after_many_puts_of_random_sizes() -> None:
    budget = 5_000
    cache = _cache(budget)
    chooser = random.Random(20)
    kept: dict[str, int] = {}
    for _ in range(3_000):
        key = f"k{chooser.randrange(400)}"
        size = chooser.randrange(1, 1_200)
        if cache.put(key, b"." * size):
            kept[key] = size
        assert cache.bytes_used <= budget
    # what is counted is what is held: the sizes of the values still there
    held = [key for key in kept if cache.get(key) is not None]
    assert cache.bytes_used == sum(len(cache.get(key) or b"") for key in held)
    assert len(cache) == len(held)


def test_many_threads_putting_at_once_keep_the_count_right() -> None:
    budget = 20_000
    cache = _cache(budget)
    start = threading.Barrier(8)
    problems: list[str] = []

    def work(worker: int) -> None:
        start.wait()
        for index in range(2_000):
            cache.put(f"{worker}-{index % 50}", b"." * (1 + (index * 37 + worker) % 900))
            cache.get(f"{(worker + 1) % 8}-{index % 50}")
            if cache.bytes_used > budget:
                problems.append(f"{cache.bytes_used} bytes used")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    held = sum(len(value) for value in (cache.get(f"{w}-{i}") for w in range(8)
                                        for i in range(50)) if value is not None)
    assert cache.bytes_used == held <= budget


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        _cache(-1)


@dataclass(frozen=True, slots=True)
class _Pair:
    left: object
    right: object


class _Plain:
    def __init__(self, held: object) -> None:
        self.held = held


def test_deep_size_counts_what_a_value_reaches_once() -> None:
    text = "x" * 1_000
    numbers = list(range(1_000, 1_100))
    by_hand = (sys.getsizeof(numbers) + sum(sys.getsizeof(n) for n in numbers))
    assert deep_size(numbers) == by_hand
    pair = _Pair(text, text)  # the same string twice: counted once
    assert deep_size(pair) == sys.getsizeof(pair) + sys.getsizeof(text)
    plain = _Plain({"k": text})
    assert deep_size(plain) == (sys.getsizeof(plain) + sys.getsizeof(vars(plain))
                                + sys.getsizeof("held") + sys.getsizeof({"k": text})
                                + sys.getsizeof("k") + sys.getsizeof(text))


def test_deep_size_leaves_out_what_is_shared() -> None:
    board = "b" * 10_000
    world = _Pair(board, "own")
    assert deep_size(world, shared=(board,)) == sys.getsizeof(world) + sys.getsizeof("own")
    assert deep_size(world) > 10_000


def test_get_or_make_makes_a_missing_value_once_and_keeps_none_too() -> None:
    made: list[str] = []

    def make(value: bytes | None) -> bytes | None:
        made.append("made")
        return value

    cache: ByteCappedCache[str, bytes | None] = ByteCappedCache(100, lambda v: len(v or b"."))
    assert cache.get_or_make("a", lambda: make(b"abc")) == b"abc"
    assert cache.get_or_make("a", lambda: make(b"other")) == b"abc"
    assert cache.get_or_make("none", lambda: make(None)) is None
    assert cache.get_or_make("none", lambda: make(b"late")) is None
    assert made == ["made", "made"]
    assert cache.get_or_make("big", lambda: make(b"x" * 200)) == b"x" * 200  # given, not kept
    assert cache.get("big") is None and cache.bytes_used == 4
