"""The positional draw scheme, pinned by vectors anyone can recompute with sha256sum."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairfight.core import draws

SEED = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

# Each digest below was produced by `printf '%s' TEXT | sha256sum` (or `openssl dgst -hmac`).
SHA256_OF = {
    "KEY:0": "0868abdad5c7f7f814e7fa38bb86dda50d5ce3c2b4612ba4f473a7ad89ea1c29",
    "KEY:1": "92d4fca66ee31289c2b12578d0b21a5ee6609a484a05bead19110744788bca91",
    "abc:7:x-y_Z": "6a784edbbc2ea1366e1c1bb897d9bdf5d7225c68e647fdd91ab7ab1dcc2c42f9",
    SEED + ":0": "46b62ac7454450338a191801791d312179c6e934bffacbb760438610643cbb3b",
}


def first_eight_bytes(hex_digest: str) -> int:
    return int(hex_digest[:16], 16)


def test_hash64_matches_sha256sum_vectors() -> None:
    assert draws.hash64("KEY", 0) == first_eight_bytes(SHA256_OF["KEY:0"])
    assert draws.hash64("KEY", 1) == first_eight_bytes(SHA256_OF["KEY:1"])
    assert draws.hash64("abc", 7, "x-y_Z") == first_eight_bytes(SHA256_OF["abc:7:x-y_Z"])
    assert draws.hash64(SEED, 0) == first_eight_bytes(SHA256_OF[SEED + ":0"])


def test_commitment_is_sha256_of_the_seed_text() -> None:
    assert (
        draws.commitment(SEED)
        == "a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e"
    )
    assert (
        draws.commitment("a" * 64)
        == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"
    )


def test_beacon_key_is_hmac_of_the_beacon_under_the_seed() -> None:
    expected = "aa89898d2c0fb44a3415fa17ae06ff0389159116cc11e60a4f2de9348938509e"
    assert draws.beacon_key(SEED, "deadbeef") == expected


def test_reveal_verifies_only_the_committed_seed() -> None:
    published = draws.commitment(SEED)
    assert draws.verify_reveal(SEED, published)
    assert draws.verify_reveal(SEED, published.upper())
    assert not draws.verify_reveal("b" * 64, published)
    assert not draws.verify_reveal("not a seed", published)


def test_new_seed_is_a_valid_fresh_seed() -> None:
    first, second = draws.new_seed(), draws.new_seed()
    assert draws.validate_seed(first) == first
    assert first != second


@pytest.mark.parametrize("bad", ["", "A" * 64, "a" * 63, "g" * 64, " " + "a" * 63])
def test_bad_seeds_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="seed"):
        draws.commitment(bad)


@pytest.mark.parametrize("field", ["", "a:b", "a b", "é", -1, True, 1.5])
def test_ambiguous_fields_are_refused(field: object) -> None:
    with pytest.raises(ValueError):
        draws.hash64("KEY", field)  # type: ignore[arg-type]


def test_key_with_separator_is_refused() -> None:
    with pytest.raises(ValueError, match="key"):
        draws.hash64("a:b", 0)


@given(
    st.lists(st.integers(0, 10**6) | st.sampled_from(["nat", "D", "P-CA", "x_1"]), max_size=3),
    st.lists(st.integers(0, 10**6) | st.sampled_from(["cand", "R", "S-NY-I"]), min_size=1),
)
def test_a_shared_start_draws_what_the_whole_address_draws(
    start: list[int | str], tail: list[int | str]
) -> None:
    assert draws.Addresses("KEY", *start).hash64(*tail) == draws.hash64("KEY", *start, *tail)
    head, rest = tail[:1], tail[1:] or [0]
    longer = draws.Addresses("KEY", *start).extended(*head)
    assert longer.hash64(*rest) == draws.hash64("KEY", *start, *head, *rest)
    encoded = draws.address_tail(*tail)
    assert draws.Addresses("KEY", *start).hash64_tail(encoded) == draws.hash64("KEY", *start, *tail)


@pytest.mark.parametrize("field", ["", "a:b", "a b", -1, True])
def test_an_encoded_tail_refuses_what_hash64_refuses(field: object) -> None:
    with pytest.raises(ValueError, match="field 0"):
        draws.address_tail(field)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="continues the shared start"):
        draws.address_tail()
    with pytest.raises(ValueError, match="continues the shared start"):
        draws.Addresses("KEY", 2028).hash64_tail(b"")


@pytest.mark.parametrize("field", ["", "a:b", "a b", -1, True])
def test_a_shared_start_refuses_what_hash64_refuses(field: object) -> None:
    with pytest.raises(ValueError, match="field 1"):
        draws.Addresses("KEY", 2028).hash64(field)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="field 1"):
        draws.hash64("KEY", 2028, field)  # type: ignore[arg-type]


def test_below_is_multiply_shift() -> None:
    top = draws.DRAW_RANGE - 1
    assert draws.below(10, 0) == 0
    assert draws.below(10, top) == 9
    assert draws.below(3, draws.DRAW_RANGE // 3) == 0
    assert draws.below(3, draws.DRAW_RANGE // 3 + 1) == 1
    with pytest.raises(ValueError):
        draws.below(0, 5)
    with pytest.raises(ValueError):
        draws.below(5, draws.DRAW_RANGE)
    for n, x in ((True, 5), (5, True), (2.0, 5), (5, -1), (-3, 5)):
        with pytest.raises(ValueError):
            draws.below(n, x)  # type: ignore[arg-type]


@given(st.integers(1, 10**6), st.integers(0, 2**64 - 1))
def test_below_stays_in_range(n: int, x: int) -> None:
    assert 0 <= draws.below(n, x) < n


@given(st.integers(1, 500))
def test_below_splits_the_draw_space_evenly(n: int) -> None:
    """Each index owns floor or ceil of 2**64 / n draws: the pick is as fair as 64 bits allow."""
    starts = [-(-(i << 64) // n) for i in range(n + 1)]  # first draw mapping to index i
    sizes = {starts[i + 1] - starts[i] for i in range(n)}
    assert sizes <= {(1 << 64) // n, -(-(1 << 64) // n)}
    for i in range(n):
        assert draws.below(n, starts[i]) == i
        if starts[i] > 0:
            assert draws.below(n, starts[i] - 1) == i - 1


def test_chance_counts_exactly_p_of_the_draw_space() -> None:
    p = Fraction(189, 1000)
    threshold = -(-(p.numerator << 64) // p.denominator)  # first draw that fails
    assert draws.chance(threshold - 1, p)
    assert not draws.chance(threshold, p)
    assert not draws.chance(0, Fraction(0))
    assert draws.chance(draws.DRAW_RANGE - 1, Fraction(1))
    with pytest.raises(ValueError):
        draws.chance(0, Fraction(3, 2))


def test_draws_module_uses_only_the_standard_library() -> None:
    import ast
    import sys
    from pathlib import Path

    tree = ast.parse(Path(draws.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
