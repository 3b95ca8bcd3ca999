"""One module per ruleset or feature; each defines `router` and, if it has a page, `NAV`.

The app factory discovers the modules here, so adding a ruleset's pages is adding a file.
`NAV` is a `(order, label, path)` tuple for the site's navigation bar.
"""

__all__: list[str] = []
