"""``paddock preview``: a local web page showing a circuit's board as its game's pack prints it, redrawn whenever
the spec is saved, its problems listed and marked on it (:mod:`.server`, :mod:`.state`, ``page.html``); and the
rebuild-on-save loop it shares with ``paddock track --watch`` (:mod:`.rebuild`).

Light to import: ``paddock track`` imports :mod:`.rebuild`, which needs only the standard library until it builds.
"""
