"""An uploaded clash scenario nested 10,000 deep (YAML flow, block or JSON) is refused by its
measured depth, in one line naming the file, before any parser's recursion is reached."""

from __future__ import annotations

import pytest

from fairfight.core.errors import InputError
from fairfight.web.clash.games import scenario_from_text


@pytest.mark.parametrize("text", [
    "a: " + "[" * 10_000 + "]" * 10_000 + "\n",
    "[" * 10_000 + "]" * 10_000,
    '{"a":' * 10_000 + "1" + "}" * 10_000,
    "- " * 10_000 + "1\n",
], ids=["yaml-flow", "json-arrays", "json-objects", "yaml-block"])
def test_a_deep_upload_is_refused_by_its_depth(text: str) -> None:
    with pytest.raises(InputError) as caught:
        scenario_from_text(text)
    assert caught.value.field == "file"
    assert caught.value.rule == "line 1: nested more than 64 levels deep"
