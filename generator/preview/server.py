"""The preview: the board of one spec rebuilt on every save (:class:`Preview`), served to the page
(:mod:`.web`) until Ctrl-C, SIGTERM or SIGHUP (a closed terminal) stops it (:func:`serve`).

The main thread rebuilds (:meth:`Preview.run_builds`): it polls the spec and its CSV
(:class:`~generator.preview.rebuild.Sources`), and a build whose spec is saved again before it is done is
abandoned at its next checkpoint for the newer save (superseded, never queued). With ``--sim`` the board shown is
raced in a process of its own afterwards (:mod:`.sim`); a newer save ends that run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .rebuild import POLL, Sources, attempt
from .state import NoteSource, Superseded, View, build_view
from .web import PreviewServer, page_html  # noqa: F401  (the server, for callers of this module)

#: The default port; taken, any free port is used (the terminal says which).
DEFAULT_PORT = 8765


class Preview:
    """The board of one spec, rebuilt on every save, and the page's state: what the server serves."""

    def __init__(
        self,
        spec: Path,
        settings,
        game: str | None = None,
        options: dict | None = None,
        wording: Callable | None = None,
        notes: Sequence[NoteSource] = (),
        say: Callable[[str], None] = print,
        said_change: Callable[[str], str] = str,
        sim: bool = False,
    ) -> None:
        self.spec = Path(spec)
        self.settings = settings
        self.game = game
        self.options = {k: v for k, v in (options or {}).items() if v is not None}  # cars, laps, start, grid
        self.wording = wording
        self.notes = notes  # further checks of a built board, each listed under its name
        self.said_change = said_change
        self.say = say
        self.sources = Sources(self.spec)
        self.changed = threading.Condition()
        self.version = 0  # bumped on every change of what the page shows
        self.board = 0  # the version of the board on screen (its SVG and PDF)
        self.view: View | None = None  # the last board drawn
        self.info: dict | None = None  # the latest build's problems, figures and notes
        self.error: dict | None = None  # why the latest save shows no board of its own
        self.sim_state: dict | None = None  # the race of the board on screen (--sim): racing, or its lines
        self.building = False
        self.builds = 0
        self.superseded = 0
        self.sim = None
        if sim:
            from .sim import Simulation

            self.sim = Simulation(self.spec, game or "", self.options, self._sim_done)
        self._pdf: tuple[int, bytes] | None = None
        # one drawing at a time: a build (on the main thread) and a PDF asked for (on a server thread) share the
        # fonts' and writers' caches
        self.drawing = threading.Lock()
        self.stop = threading.Event()

    # ----------------------------------------------------------------------------------------- rebuilding

    def state(self) -> dict:
        """What the page shows now (JSON-able): the latest build's problems and figures, the version of the board
        on screen (the last that could be drawn), why the latest save shows no board of its own, and the race of
        the board on screen (``sim``)."""
        with self.changed:
            view, info, error, sim = self.view, self.info, self.error, self.sim_state
            out = dict(info) if info else {"name": self.spec.name, "file": str(self.spec), "problems": []}
            out.update(version=self.version, board=self.board if view else 0, error=error, building=self.building)
            out["sim"] = sim if self.sim is not None else None
            out["options"] = dict(self.options)
        if view is not None:
            out["page"] = view.state["page"]
            out["shown_printable"] = view.state["printable"]
        return out

    def _publish(self, **changes) -> None:
        with self.changed:
            for k, v in changes.items():
                setattr(self, k, v)
            self.version += 1
            self.changed.notify_all()

    def _sim_done(self, board: int, sim: dict) -> None:
        """A run's news (racing, or its lines) for the board shown as ``board``: kept only while it is shown."""
        with self.changed:
            if board != self.board:
                return
        self._publish(sim_state=dict(sim, board=board))

    def rebuild(self, stamp: tuple) -> bool:
        """Build the spec as saved at ``stamp``; False if a newer save superseded it."""
        from ..errors import PaddockError

        if self.sim is not None:
            self.sim.cancel()  # the board it races is about to go
        self._publish(building=True, sim_state=None)

        def build():
            with self.drawing:
                return build_view(
                    self.spec,
                    self.settings,
                    self.game,
                    self.options,
                    self.wording,
                    stale=lambda: self.sources.stamp() != stamp,
                    notes=self.notes,
                    said_change=self.said_change,
                )

        done = attempt(build, lambda v: v.state["name"])
        if isinstance(done.error, Superseded):
            self.superseded += 1
            return False
        self.builds += 1
        for note in done.notes:
            self.say(f"paddock: warning: {note}")
        if done.ok:
            view = done.value
            view.state["notes"] = [{"source": "warning", "text": n} for n in done.notes] + view.state["notes"]
            view.state["built"] = time.strftime("%H:%M:%S")
            n = len(view.state["problems"])
            problems = f"{n} problem{'s' if n != 1 else ''}"
            if view.svg is not None:
                self._publish(view=view, info=view.state, error=None, building=False, board=self.version + 1)
                if view.state["printable"]:
                    self.say(done.said)
                    if self.sim is not None:
                        self.sim.start(self.board, view.state["game"])
                else:
                    name = view.state["name"]
                    self.say(
                        f"paddock: {name} does not print yet: {problems}, marked on the page "
                        f"({view.state['built']}); still watching"
                    )
            else:  # nothing of it can be drawn: its problems, over the last board drawn
                said = f"the board does not build: {problems}"
                self._publish(info=view.state, error={"kind": "problems", "text": said}, building=False)
                self.say(f"paddock: {said} (listed on the page); still watching")
        else:
            err = done.error
            error = {"kind": "input", "text": done.said.removeprefix("paddock: ")}
            if isinstance(err, PaddockError):
                error.update(text=str(err), message=err.message, line=err.line, field=err.field, hint=err.hint)
                error["missing"] = not self.spec.is_file()
            info = dict(self.info or {}, problems=[])  # the problems found before are of another file
            self._publish(info=info, error=error, building=False)
            self.say(f"{done.said}; still watching")
        return True

    def run_builds(self, poll: float = POLL) -> None:
        """Poll the spec and rebuild on every change until :attr:`stop` is set."""
        last = None
        while not self.stop.is_set():
            now = self.sources.stamp()
            if now != last:
                if self.rebuild(now):
                    last = now
                continue  # superseded: the newer save is built at once
            self.stop.wait(poll)

    # ----------------------------------------------------------------------------------------- serving

    def svg(self) -> tuple[bytes, int] | None:
        """The board on screen as SVG, and its version."""
        with self.changed:
            return (self.view.svg, self.board) if self.view is not None else None

    def pdf(self) -> tuple[bytes, str, bool] | None:
        """The board as it stands, as the PDF the pack would print (rendered once per board), its name, and
        whether it prints as it is (a board with problems does not yet)."""
        from ..scene import Document
        from ..writers import WRITERS

        with self.changed:
            view, board = self.view, self.board
        if view is None:
            return None
        with self.drawing:
            if self._pdf is None or self._pdf[0] != board:
                self._pdf = (board, WRITERS["pdf"].render(Document(view.pages, view.title))[0])
            return self._pdf[1], view.state["name"], bool(view.state["printable"])


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (a closed terminal): the preview stops as on Ctrl-C."""


def bind(preview: Preview, port: int | None) -> PreviewServer:
    """A server for ``preview`` on ``port`` (None: :data:`DEFAULT_PORT`, or any free one if that is taken; 0: any
    free one). An InputError when the port asked for cannot be had."""
    from ..errors import InputError

    try:
        return PreviewServer(preview, DEFAULT_PORT if port is None else port)
    except OSError as err:
        if port is None:
            return PreviewServer(preview, 0)
        raise InputError(
            f"port {port} cannot be used ({err.strerror or err})",
            field="--port",
            hint="give another port, or leave --port out for a free one",
        ) from None


def serve(preview: Preview, server: PreviewServer, open_browser: bool = False) -> None:
    """Serve (on a thread of its own) and rebuild (on this one) until Ctrl-C, SIGTERM or SIGHUP. The builds run on
    the main thread: its memory is handed back to the system between builds, where a thread's stays with the
    thread (the server grew from 90 to 210 MB over 600 saves with its builds on a thread, and stays under 100 MB
    so)."""
    import signal

    def stop(signum, _frame):
        raise Stopped(signal.Signals(signum).name)

    before = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            if hasattr(signal, name):
                before[name] = signal.signal(getattr(signal, name), stop)
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.25}, daemon=True)
    serving.start()
    preview.say(f"paddock: preview of {preview.spec} at {server.url} (Ctrl-C to stop)")
    if open_browser:
        import webbrowser

        threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
    try:
        preview.run_builds()
    except KeyboardInterrupt as err:
        why = f" ({err.args[0]})" if isinstance(err, Stopped) and err.args else ""
        preview.say(f"paddock: preview stopped{why}")
    finally:
        for name, handler in before.items():
            signal.signal(getattr(signal, name), handler)
        preview.stop.set()
        if preview.sim is not None:
            preview.sim.cancel()
        server.shutdown()
        server.server_close()
