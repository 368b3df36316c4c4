"""``paddock preview --sim``: the board raced in a process of its own once it is on the page, the run's warnings
listed beside it when they come; a newer save ends a run still racing (its board is gone)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

#: Races a run makes: enough for the simulator's warnings, quick enough to wait for.
RACES = 100


def race(spec: str, game_id: str, races: int, cars: int | None, laps: int | None, conn) -> None:
    """A quick run of ``game_id`` on ``spec`` (in the child process): its warnings sent on ``conn`` as lines."""
    import warnings

    from .. import games
    from ..errors import PaddockError
    from ..simulate import SimOptions

    try:
        game = games.get(game_id)
        if not game.simulates:
            lines = [f"Paddock cannot simulate {game.title} races"]
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    report = game.simulate(Path(spec), SimOptions(races=races, seed=1, jobs=1, cars=cars, laps=laps))
                except PaddockError as err:
                    if laps is None or getattr(err, "field", None) != "--laps":
                        raise
                    report = game.simulate(Path(spec), SimOptions(races=races, seed=1, jobs=1, cars=cars))
            lines = list(report.warnings) or [f"no warnings from {races} races of {game.id}"]
    except PaddockError as err:  # the board builds but cannot be raced as it is
        lines = [f"not raced: {err}"]
    except Exception as err:  # noqa: BLE001 — a bug in a run must not end the preview
        lines = [f"the simulation failed ({type(err).__name__})"]
    conn.send(lines)
    conn.close()


class Simulation:
    """Runs :func:`race` for each board shown, one at a time: :meth:`start` ends the run before it."""

    def __init__(
        self,
        spec: Path,
        game_id: str,
        options: dict,
        publish: Callable[[int, dict], None],
        races: int = RACES,
    ) -> None:
        self.spec, self.game_id, self.races = Path(spec), game_id, races
        self.cars, self.laps = options.get("cars"), options.get("laps")
        self.publish = publish  # publish(board, {"status": …, "lines": […]})
        self.lock = threading.Lock()
        self.process = None
        self.runs = 0
        self.cancelled = 0

    def start(self, board: int, game_id: str | None = None) -> None:
        """Race the board shown as ``board`` (the spec as it is now, as ``game_id``'s board), ending any run
        still racing."""
        import multiprocessing

        self.cancel()
        self.game_id = game_id or self.game_id
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of the server's threads
        mine, theirs = ctx.Pipe(duplex=False)
        args = (str(self.spec), self.game_id, self.races, self.cars, self.laps, theirs)
        process = ctx.Process(target=race, args=args, daemon=True, name="paddock-preview-sim")
        with self.lock:
            self.process = process
            self.runs += 1
        process.start()
        theirs.close()
        self.publish(board, {"status": "racing", "races": self.races, "lines": []})
        threading.Thread(target=self._wait, args=(process, mine, board), daemon=True).start()

    def _wait(self, process, conn, board: int) -> None:
        from multiprocessing.connection import wait

        lines = None
        try:
            wait([conn, process.sentinel])
            if conn.poll():
                lines = conn.recv()
        except (EOFError, OSError):
            lines = None
        finally:
            conn.close()
            process.join(5)
        with self.lock:
            current = self.process is process
            if current:
                self.process = None
        if current and lines is not None:
            self.publish(board, {"status": "done", "races": self.races, "lines": [str(x) for x in lines]})

    def cancel(self) -> None:
        """End the run still racing, if any (its board is no longer the one shown)."""
        with self.lock:
            process, self.process = self.process, None
        if process is not None and process.is_alive():
            self.cancelled += 1
            process.terminate()
            process.join(3)
            if process.is_alive():
                process.kill()
                process.join(3)
