"""Every file path and every code name the docs mention exists, so a walk through the code
cannot send a reader to a module or function that moved or was renamed.

The docs write code in backticks. A backticked path (`src/fairfight/ballot/cli.py`,
`web/clash/routes.py`, `record/`) must be a file or folder of the repository, of
`src/fairfight` or of one of its packages. A backticked dotted name (`fairfight.clash.kernel`,
`web.ballot.forms.checked`, `kernel.prepare`, `SeasonStore.transaction`) that starts with
`fairfight`, with the name of one of the source's modules or packages, or with one of its
classes, must resolve in the source, read with `ast` (nothing is imported): its leading parts
name a module (in full, or by the tail of its dotted name), the next part a name defined or
imported there, and the part after that, if any, a member of a class of that name (or of its
bases). Other dotted words are not the project's code (`gc.freeze`, a record's field
`morale.nws`, a file of an archive `ledger.json`) and are left alone; a Python or JavaScript
file named by itself (`engine.js`) must be a file of the repository.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "fairfight"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PATH_ROOTS = (ROOT, SOURCE, *sorted(p for p in SOURCE.iterdir() if (p / "__init__.py").exists()))
CODE_FILES = {"py", "js"}
"""A dotted name ending in one of these is a file of ours (`engine.js`), found by its name."""
OTHER_FILES = {"json", "jsonl", "md", "txt", "db", "yaml", "typed", "toml", "csv", "html"}
"""A dotted name ending in one of these names a data file (often one a run or an archive
writes), not code."""
NOT_CODE = {
    "app.state.front_page": "an attribute set on the FastAPI application's state at start-up",
    "fairfight.conquest.engine": "a flat name of before the wings, which conquest/_moved.py "
                                 "still maps to its new home",
}
"""Dotted names in the docs that are not definitions in the source, each with what it is."""
NOT_PATHS = {
    ".run/": "the folder `make run` creates for its demo season",
    "maps/NAME.shapes.json": "a pattern: NAME stands for a map's name",
}
"""Paths in the docs that a run creates rather than the repository holds."""

BACKTICKED = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
PATHLIKE = re.compile(r"[\w.\-]+(?:/[\w.\-]*)+")


@dataclass
class Index:
    """The source's modules with their top-level names, and its classes with their members."""

    modules: dict[str, set[str]] = field(default_factory=dict)
    classes: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    bases: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    files: set[str] = field(default_factory=set)

    def module_words(self) -> set[str]:
        """Every part of every module's dotted name (`fairfight`, `ballot`, `kernel`, ...)."""
        return {part for name in self.modules for part in name.split(".")}

    def has_member(self, cls: str, member: str) -> bool:
        """Whether a class of that name (or one of its bases) defines `member`."""
        seen, todo = set(), [cls]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if member in self.classes.get(name, ()):
                return True
            todo += self.bases.get(name, ())
        return False


def _class_members(node: ast.ClassDef) -> set[str]:
    names = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
        elif isinstance(item, ast.Assign):
            names |= {t.id for t in item.targets if isinstance(t, ast.Name)}
    return names


def index_source(source: Path) -> Index:
    """Read every module under `source` (its name is `fairfight.` and its path)."""
    index = Index()
    for folder in ("src", "tests", "tools", "bench"):
        index.files |= {p.name for p in (source.parents[1] / folder).rglob("*") if p.is_file()}
    for path in sorted(source.rglob("*.py")):
        parts = path.relative_to(source.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                index.classes[node.name] |= _class_members(node)
                index.bases[node.name] |= {b.id for b in node.bases if isinstance(b, ast.Name)}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, ast.If):  # TYPE_CHECKING imports and lazy re-exports
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom | ast.Import):
                        names |= {(a.asname or a.name).split(".")[0] for a in inner.names}
        all_names = _declared_all(tree)
        index.modules[name] = names | all_names
    for name in list(index.modules):  # a package holds its sub-modules as names
        parent, _, child = name.rpartition(".")
        if parent in index.modules:
            index.modules[parent].add(child)
    return index


def _declared_all(tree: ast.Module) -> set[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            try:
                return set(ast.literal_eval(node.value))
            except ValueError:
                return set()
    return set()


def is_ours(name: str, index: Index) -> bool:
    """Whether a dotted name is written as the project's code (see the module's docstring)."""
    parts = name.split(".")
    first, last = parts[0], parts[-1]
    if any(part in OTHER_FILES for part in parts[1:]) or name in NOT_CODE:
        return False
    return last in CODE_FILES or first in index.module_words() or first in index.classes


def resolves(name: str, index: Index) -> bool:
    """Whether the dotted `name` names a module, a name in a module, or a class member."""
    parts = name.split(".")
    if parts[-1] in CODE_FILES:
        return name in index.files
    for module, defined in index.modules.items():
        module_parts = module.split(".")
        for k in range(len(parts), 0, -1):
            if module_parts[-k:] != parts[:k]:
                continue
            rest = parts[k:]
            if not rest:
                return True
            if rest[0] not in defined:
                continue
            if len(rest) == 1 or index.has_member(rest[0], rest[1]):
                return True
    return len(parts) == 2 and index.has_member(parts[0], parts[1])


def path_exists(text: str) -> bool:
    """Whether a path the docs write is a file or folder of the repository."""
    return text in NOT_PATHS or any((root / text.rstrip("/")).exists() for root in PATH_ROOTS)


def mentions(text: str) -> tuple[set[str], set[str]]:
    """The paths and the dotted names written in backticks in `text`."""
    paths, names = set(), set()
    for span in BACKTICKED.findall(text):
        token = span.strip()
        if any(mark in token for mark in "{}<>*…"):
            continue  # a pattern (`*_cli`, `web/<ruleset>/`, `/api/seasons/{season}`)
        if PATHLIKE.fullmatch(token) and not token.startswith("/"):
            if "." in token.split("/")[-1] or token.endswith("/") or token.startswith("src/"):
                paths.add(token)
            continue
        call = re.fullmatch(r"(" + DOTTED.pattern + r")(?:\(.*\))?", token)
        if call and not token.startswith("python"):
            names.add(call.group(1))
    return paths, names


@pytest.fixture(scope="module")
def index() -> Index:
    return index_source(SOURCE)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_path_and_name_in_the_docs_exists(doc: Path, index: Index) -> None:
    paths, names = mentions(doc.read_text(encoding="utf-8"))
    missing = sorted(p for p in paths if not path_exists(p))
    unknown = sorted(n for n in names if is_ours(n, index) and not resolves(n, index))
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"
    assert not unknown, f"{doc.name} names code that does not exist: {unknown}"


def test_the_architecture_walks_name_code(index: Index) -> None:
    paths, names = mentions((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert len(names) > 100 and len(paths) > 10
    for walked in ("ballot.seat_view.seat_view", "clash.turn.run_turn",
                   "ballot.store.BallotStore.answer", "web.clash.seat_pages.play_order"):
        assert walked in names


def test_a_missing_name_or_path_is_found(index: Index) -> None:
    planted = ("Walk: `fairfight.ballot.engine.advance`, `ballot.engine.no_such_step`, "
               "`TableGame.play`, `TableGame.no_such_method`, `kernel.prepare`, "
               "`clash.nowhere.prepare`, `src/fairfight/ballot/cli.py`, `src/fairfight/gone.py`, "
               "`engine.js`, `missing.js`, `gc.freeze`, `morale.nws`, `ledger.json`.")
    paths, names = mentions(planted)
    assert {n for n in names if is_ours(n, index) and not resolves(n, index)} == {
        "ballot.engine.no_such_step", "TableGame.no_such_method", "clash.nowhere.prepare",
        "missing.js"}
    assert {p for p in paths if not path_exists(p)} == {"src/fairfight/gone.py"}
