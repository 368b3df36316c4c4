"""The preview's web server: the standard library's threaded HTTP server, bound to 127.0.0.1, and server-sent
events telling the page when the board changed.

It serves four fixed paths and nothing else: the page (``page.html``, shipped with the package), the board as
SVG, its PDF, and the event stream. The request's path is only ever compared with those four: nothing of it
reaches the file system. The main thread rebuilds (:meth:`Preview.run_builds`): it polls the spec and its CSV
(:class:`~generator.preview.rebuild.Sources`), and a build whose spec is saved again before it is done is
abandoned at its next checkpoint for the newer save (superseded, never queued).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from .rebuild import POLL, Sources, attempt
from .state import NoteSource, Superseded, View, build_view

#: At most this many pages listening at once (each holds a thread); more get 503.
MAX_LISTENERS = 16
#: Seconds between two keep-alive comments on an idle event stream (a closed tab is noticed then).
KEEPALIVE = 15.0
#: The default port; taken, any free port is used (the terminal says which).
DEFAULT_PORT = 8765


def page_html() -> bytes:
    from importlib.resources import files

    return files(__package__).joinpath("page.html").read_bytes()


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
    ) -> None:
        self.spec = Path(spec)
        self.settings = settings
        self.game = game
        self.options = options or {}
        self.wording = wording
        self.notes = notes  # further checks of a built board, each listed under its name (a simulator's, say)
        self.said_change = said_change
        self.say = say
        self.sources = Sources(self.spec)
        self.changed = threading.Condition()
        self.version = 0  # bumped on every change of what the page shows
        self.board = 0  # the version of the board on screen (its SVG and PDF)
        self.view: View | None = None  # the last board drawn
        self.info: dict | None = None  # the latest build's problems, figures and notes
        self.error: dict | None = None  # why the latest save shows no board of its own
        self.building = False
        self.builds = 0
        self.superseded = 0
        self._pdf: tuple[int, bytes] | None = None
        # one drawing at a time: a build (on the main thread) and a PDF asked for (on a server thread) share the
        # fonts' and writers' caches
        self.drawing = threading.Lock()
        self.stop = threading.Event()

    # ----------------------------------------------------------------------------------------- rebuilding

    def state(self) -> dict:
        """What the page shows now (JSON-able): the latest build's problems and figures, the version of the board
        on screen (the last that could be drawn), and why the latest save shows no board of its own."""
        with self.changed:
            view, info, error = self.view, self.info, self.error
            out = dict(info) if info else {"name": self.spec.name, "file": str(self.spec), "problems": []}
            out.update(version=self.version, board=self.board if view else 0, error=error, building=self.building)
        if view is not None:
            out["page"] = view.state["page"]
        return out

    def _publish(self, **changes) -> None:
        with self.changed:
            for k, v in changes.items():
                setattr(self, k, v)
            self.version += 1
            self.changed.notify_all()

    def rebuild(self, stamp: tuple) -> bool:
        """Build the spec as saved at ``stamp``; False if a newer save superseded it."""
        from ..errors import PaddockError

        self._publish(building=True)

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
        if done.ok:
            view = done.value
            view.state["notes"] = [{"source": "warning", "text": n} for n in done.notes] + view.state["notes"]
            view.state["built"] = time.strftime("%H:%M:%S")
            if view.svg is not None:
                self._publish(view=view, info=view.state, error=None, building=False, board=self.version + 1)
                self.say(done.said)
            else:  # nothing of it can be drawn: its problems, over the last board drawn
                n = len(view.state["problems"])
                said = f"the board does not build: {n} problem{'s' if n != 1 else ''}"
                self._publish(info=view.state, error={"kind": "problems", "text": said}, building=False)
                self.say(f"paddock: {said} (listed on the page); still watching")
        else:
            err = done.error
            error = {"kind": "input", "text": done.said.removeprefix("paddock: ")}
            if isinstance(err, PaddockError):
                error.update(text=str(err), message=err.message, line=err.line, field=err.field, hint=err.hint)
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

    def pdf(self) -> tuple[bytes, str] | None:
        """The board as it stands, as the PDF the pack would print (rendered once per board)."""
        from ..scene import Document
        from ..writers import WRITERS

        with self.changed:
            view, board = self.view, self.board
        if view is None:
            return None
        with self.drawing:
            if self._pdf is None or self._pdf[0] != board:
                self._pdf = (board, WRITERS["pdf"].render(Document(view.pages, view.title))[0])
            return self._pdf[1], view.state["name"]


class Handler(BaseHTTPRequestHandler):
    """Answers the four paths of the preview; 404 for every other."""

    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "Paddock-preview"
    sys_version = ""

    def log_message(self, format, *args) -> None:  # noqa: A002 — the terminal says what the preview does, not each request
        pass

    def _send(self, status: int, body: bytes, kind: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found(self) -> None:
        self._send(404, b"not found\n", "text/plain; charset=utf-8")

    def _host_ok(self) -> bool:
        """Only the page's own address (a web page elsewhere cannot reach it through a name of its own)."""
        port = self.server.server_address[1]
        return self.headers.get("Host", "") in (f"127.0.0.1:{port}", f"localhost:{port}")

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802
        if not self._host_ok():
            self._send(403, b"forbidden\n", "text/plain; charset=utf-8")
            return
        route = {"/": self._page, "/board.svg": self._svg, "/board.pdf": self._pdf, "/events": self._events}
        serve = route.get(urlsplit(self.path).path)
        if serve is None:
            self._not_found()
        else:
            serve()

    def _page(self) -> None:
        csp = "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'unsafe-inline'; font-src data:"
        self._send(200, self.server.page, "text/html; charset=utf-8", {"Content-Security-Policy": csp})

    def _svg(self) -> None:
        made = self.server.preview.svg()
        if made is None:
            self._not_found()
        else:
            self._send(200, made[0], "image/svg+xml", {"X-Board-Version": str(made[1])})

    def _pdf(self) -> None:
        made = self.server.preview.pdf()
        if made is None:
            self._not_found()
            return
        data, name = made
        from ..outputs import safe_name

        stem = safe_name(name.lower().replace(" ", "-")) or "board"
        self._send(200, data, "application/pdf", {"Content-Disposition": f'inline; filename="{stem}.pdf"'})

    def _events(self) -> None:
        """The page's state now and after every change, as server-sent events, until the page goes away."""
        srv = self.server
        with srv.lock:
            if srv.listeners >= MAX_LISTENERS:
                self._send(503, b"too many pages open\n", "text/plain; charset=utf-8")
                return
            srv.listeners += 1
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            if self.command == "HEAD":
                return
            preview = srv.preview
            sent = -1
            while not preview.stop.is_set():
                with preview.changed:
                    if preview.version == sent:
                        preview.changed.wait(KEEPALIVE)
                    version = preview.version
                if version == sent:
                    self.wfile.write(b": still here\n\n")
                else:
                    data = json.dumps(preview.state(), ensure_ascii=False, separators=(",", ":"))
                    self.wfile.write(f"event: state\ndata: {data}\n\n".encode())
                    sent = version
                self.wfile.flush()
        except OSError:  # the page went away
            pass
        finally:
            with srv.lock:
                srv.listeners -= 1


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, preview: Preview, port: int) -> None:
        self.preview = preview
        self.page = page_html()
        self.lock = threading.Lock()
        self.listeners = 0
        super().__init__(("127.0.0.1", port), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


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
    """Serve (on a thread of its own) and rebuild (on this one) until Ctrl-C. The builds run on the main thread:
    its memory is handed back to the system between builds, where a thread's stays with the thread (the server
    grew from 90 to 210 MB over 600 saves with its builds on a thread, and stays under 100 MB so)."""
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.25}, daemon=True)
    serving.start()
    preview.say(f"paddock: preview of {preview.spec} at {server.url} (Ctrl-C to stop)")
    if open_browser:
        import webbrowser

        threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
    try:
        preview.run_builds()
    except KeyboardInterrupt:
        preview.say("paddock: preview stopped")
    finally:
        preview.stop.set()
        with preview.changed:
            preview.changed.notify_all()
        server.shutdown()
        server.server_close()
