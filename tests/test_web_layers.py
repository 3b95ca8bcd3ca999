"""The web package in three layers, imported only downwards (read from the source with ast).

- the site (bottom): settings, security, errors, templating, operations, migrations and every
  other module of `fairfight.web` that belongs to no part below;
- the parts (middle): one package per ruleset (`web/ballot`, `web/clash`, `web/conquest`,
  `web/warscore`: a subpackage named as a ruleset of `fairfight`) and the site's own routes
  (`web/routes`); a part imports the site and itself, never another part;
- the app (top): `fairfight.web` itself, `app` (the factory, which calls each part's hook) and
  `serve`.

A site-wide module calls no ruleset either (the named exceptions aside), so the web's top
level holds no ruleset file. The graph is the one `test_import_graph` builds: every import
counts, deferred or type-only.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_import_graph import SOURCE, _write, import_graph

APP_MODULES = ("", "app", "serve")
"""The top layer, as names under the web package ("" is the package itself)."""
SITE_ROUTES = "routes"
"""The site's own routes: a part of their own, like a ruleset's package."""
ALLOWED: dict[tuple[str, str], str] = {}
"""(importer, imported) -> why an import against the layers is accepted. None today."""
SITE_RULESET_USERS = {
    "fairfight.web.verify_runner": "the verify page's child process runs the season verifier",
}
"""Site-wide modules that call a ruleset themselves (every other ruleset use is in the
ruleset's own package, so the web's top level holds no ruleset file), and why."""


def parts_of(web: Path) -> set[str]:
    """The parts of the web package: its subpackages named as a ruleset (a package beside
    `web` in the project), and the site's routes."""
    siblings = {path.parent.name for path in web.parent.glob("*/__init__.py")} - {web.name}
    inside = {path.parent.name for path in web.glob("*/__init__.py")}
    return (inside & siblings) | {SITE_ROUTES}


def layer(module: str, web: str, parts: set[str]) -> tuple[int, str]:
    """(level, name) of a module of the web package: 0 the site, 1 a part (named), 2 the app."""
    rest = module.removeprefix(web).removeprefix(".")
    first = rest.split(".")[0]
    if first in APP_MODULES:
        return 2, "app"
    if first in parts:
        return 1, first
    return 0, "site"


def imports_against_layers(root: Path, web: str) -> list[str]:
    """Every import inside the web package that goes up a layer or across to another part,
    and every use of a ruleset by a site-wide module."""
    graph = import_graph(root)
    web_path = root.parent.joinpath(*web.split("."))
    parts = parts_of(web_path)
    rulesets = {f"{web.rpartition('.')[0]}.{part}" for part in parts - {SITE_ROUTES}}
    found = []
    for importer, targets in sorted(graph.items()):
        if not (importer == web or importer.startswith(web + ".")):
            continue
        level, part = layer(importer, web, parts)
        for target in sorted(targets):
            ruleset = next((r for r in rulesets if target == r or target.startswith(r + ".")), "")
            if ruleset and level == 0 and importer not in SITE_RULESET_USERS:
                found.append(f"{importer} -> {target} (the site using a ruleset)")
            if not target.startswith(web + ".") or (importer, target) in ALLOWED:
                continue
            target_level, target_part = layer(target, web, parts)
            if target_level > level:
                found.append(f"{importer} -> {target} (up from the {part} to the {target_part})")
            elif target_level == level == 1 and target_part != part:
                found.append(f"{importer} -> {target} (across, from {part} to {target_part})")
    return found


def test_the_web_imports_only_downwards() -> None:
    found = imports_against_layers(SOURCE, "fairfight.web")
    assert found == [], "imports against the web's layers:\n" + "\n".join(found)


def test_the_parts_are_the_rulesets_and_the_site_routes() -> None:
    assert parts_of(SOURCE / "web") == {"ballot", "clash", "conquest", "routes", "warscore"}


def test_the_allowed_imports_still_exist() -> None:
    graph = import_graph(SOURCE)
    stale = [pair for pair in ALLOWED if pair[1] not in graph.get(pair[0], set())]
    assert stale == [], f"allowed but no longer made, remove from ALLOWED: {stale}"
    assert set(SITE_RULESET_USERS) <= set(graph)


def test_a_planted_upward_or_across_import_is_found(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/game/__init__.py": "",
            "pkg/game/rules.py": "def chance():\n    return 1\n",
            "pkg/other/__init__.py": "",
            "pkg/web/__init__.py": "",
            "pkg/web/app.py": "from pkg.web.game import wing\nfrom pkg.web import templating\n",
            "pkg/web/templating.py": "def later():\n    from pkg.web.game.pages import x\n",
            "pkg/web/errors.py": "from pkg.web.templating import templates\n",
            "pkg/web/odds.py": "from pkg.game.rules import chance\n",
            "pkg/web/game/__init__.py": "",
            "pkg/web/game/wing.py": "from pkg.web.game import pages\nfrom pkg.web import errors\n",
            "pkg/web/game/pages.py": "from pkg.web.other.views import y\n",
            "pkg/web/other/__init__.py": "",
            "pkg/web/other/views.py": "from pkg.web.app import create\n",
            "pkg/web/routes/__init__.py": "",
            "pkg/web/routes/home.py": "from pkg.web.game.pages import front\n",
        },
    )
    assert imports_against_layers(root, "pkg.web") == [
        "pkg.web.game.pages -> pkg.web.other.views (across, from game to other)",
        "pkg.web.odds -> pkg.game.rules (the site using a ruleset)",
        "pkg.web.other.views -> pkg.web.app (up from the other to the app)",
        "pkg.web.routes.home -> pkg.web.game.pages (across, from routes to game)",
        "pkg.web.templating -> pkg.web.game.pages (up from the site to the game)",
    ]
