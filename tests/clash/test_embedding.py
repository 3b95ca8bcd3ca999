"""The "embed it in your game" example of docs/clash.md runs as written."""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "clash.md"


def embedding_example() -> str:
    """The python block of the section "Embed it in your game"."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Embed it in your game", 1)[1].split("\n## ", 1)[0]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_embedding_example_runs() -> None:
    code = embedding_example()
    assert "run_turn" in code and "preview_batch" in code
    exec(compile(code, str(DOCS), "exec"), {"__name__": "embedding_example"})
