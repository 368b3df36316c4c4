"""The preview's web server: the standard library's HTTP request handler on 127.0.0.1, with its threads bounded.

It serves four fixed paths and nothing else: the page (``page.html``, shipped with the package), the board as SVG,
its PDF, and the event stream. The request's path is only ever compared with those four: nothing of it reaches
the file system; a request naming another host is refused (a web page elsewhere cannot reach it by a name of its
own).

No connection holds a thread while it waits. One thread accepts connections and watches them with a selector
until a request arrives (an idle connection is closed after :data:`IDLE_TIMEOUT`, the oldest first past
:data:`MAX_OPEN`); then one of :data:`WORKERS` threads answers it and closes it. An event stream, once its
headers and first state are sent, is handed to one broadcasting thread that writes every change to every page
listening (at most :data:`MAX_LISTENERS`: a new one pushes out the oldest, whose page reconnects) and drops a page
that does not take its data within :data:`SEND_TIMEOUT`. A client that goes away is forgotten without a word.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import selectors
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

#: Threads answering requests: a request is answered at once, whatever else is connected.
WORKERS = 6
#: Seconds an open connection may wait without a request before it is closed.
IDLE_TIMEOUT = 20.0
#: Seconds a request may take to arrive once begun, and a page to take its answer.
REQUEST_TIMEOUT = 5.0
#: Open connections waiting for a request: past this the oldest is closed.
MAX_OPEN = 512
#: Pages listening for changes at once: past this the oldest is let go (its page reconnects by itself).
MAX_LISTENERS = 64
#: Seconds a listening page may take to receive one change before it is let go.
SEND_TIMEOUT = 1.0
#: Seconds between two keep-alive comments on an idle event stream (a closed tab is noticed then).
KEEPALIVE = 15.0
#: How long the page waits before reconnecting to a server that went away (ms, the event stream's ``retry``).
RETRY_MS = 1000


def page_html() -> bytes:
    from importlib.resources import files

    return files(__package__).joinpath("page.html").read_bytes()


class Handler(BaseHTTPRequestHandler):
    """Answers the four paths of the preview, one request a connection; 404 for every other path."""

    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "Paddock-preview"
    sys_version = ""
    timeout = REQUEST_TIMEOUT
    listening = False  # set when the connection became an event stream (the broadcaster keeps it)

    def log_message(self, format, *args) -> None:  # noqa: A002 — the terminal says what the preview does, not each request
        pass

    def _send(self, status: int, body: bytes, kind: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Connection", "close")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.close_connection = True
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
        self.close_connection = True
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
        data, name, printable = made
        from ..track import board_stem

        stem = board_stem(name) or "board"
        stem += "" if printable else "-does-not-print-yet"
        self._send(200, data, "application/pdf", {"Content-Disposition": f'inline; filename="{stem}.pdf"'})

    def _events(self) -> None:
        """The page's state now, then (from the broadcaster) after every change, as server-sent events."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        self.wfile.flush()
        self.server.listen(self.connection)
        self.listening = True


class PreviewServer:
    """The preview's server on 127.0.0.1:``port`` (0: any free port); an OSError when it cannot be had."""

    def __init__(self, preview, port: int) -> None:
        self.preview = preview
        self.page = page_html()
        self.instance = secrets.token_hex(8)  # a page that reconnects knows a new server by it
        self.socket = socket.create_server(("127.0.0.1", port), backlog=128)
        self.socket.setblocking(False)
        self.server_address = self.socket.getsockname()
        self.workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="preview-request")
        self.lock = threading.Lock()
        self.open: dict[socket.socket, float] = {}  # connections waiting for a request, and since when
        self.listeners: list[list] = []  # [socket, version sent, last write], oldest first
        self.stopping = threading.Event()
        self._wake_r, self._wake_w = socket.socketpair()
        self._stopped = threading.Event()
        self._broadcaster = threading.Thread(target=self._broadcast, name="preview-events", daemon=True)
        self._broadcaster.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    # --------------------------------------------------------------------------------------- connections

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Accept and watch connections until :meth:`shutdown`."""
        sel = selectors.DefaultSelector()
        sel.register(self.socket, selectors.EVENT_READ)
        sel.register(self._wake_r, selectors.EVENT_READ)
        try:
            while not self.stopping.is_set():
                for key, _ in sel.select(timeout=min(poll_interval, 1.0)):
                    if key.fileobj is self.socket:
                        self._accept(sel)
                    elif key.fileobj is self._wake_r:
                        self._wake_r.recv(64)
                    else:
                        conn = key.fileobj
                        sel.unregister(conn)
                        self.open.pop(conn, None)
                        self.workers.submit(self._answer, conn)
                self._expire(sel)
        finally:
            for conn in list(self.open):
                sel.unregister(conn)
                _close(conn)
            self.open.clear()
            sel.close()
            self._stopped.set()

    def _accept(self, sel) -> None:
        while True:
            try:
                conn, _ = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, say: the oldest waiting connection makes room
                if not self.open:
                    return
                oldest = min(self.open, key=self.open.get)
                sel.unregister(oldest)
                self.open.pop(oldest)
                _close(oldest)
                continue
            conn.setblocking(False)
            if len(self.open) >= MAX_OPEN:
                oldest = min(self.open, key=self.open.get)
                sel.unregister(oldest)
                self.open.pop(oldest)
                _close(oldest)
            self.open[conn] = time.monotonic()
            sel.register(conn, selectors.EVENT_READ)

    def _expire(self, sel) -> None:
        now = time.monotonic()
        for conn, since in list(self.open.items()):
            if now - since > IDLE_TIMEOUT:
                sel.unregister(conn)
                self.open.pop(conn)
                _close(conn)

    def _answer(self, conn: socket.socket) -> None:
        """One request on ``conn`` (on a worker thread); the connection closed after it, unless it now listens."""
        handler = None
        try:
            conn.setblocking(True)
            conn.settimeout(REQUEST_TIMEOUT)
            handler = Handler(conn, conn.getpeername() if conn.fileno() >= 0 else ("", 0), self)
        except Exception:  # noqa: BLE001 — a client that went away, or sent nonsense: nothing to say about it
            pass
        if handler is None or not handler.listening:
            _close(conn)

    # --------------------------------------------------------------------------------------- events

    def listen(self, conn: socket.socket) -> None:
        """``conn`` (its headers sent) becomes an event stream: the current state is sent now, every change later."""
        conn.settimeout(SEND_TIMEOUT)
        version, data = self._event()
        conn.sendall(f"retry: {RETRY_MS}\n\n".encode() + data)
        with self.lock:
            self.listeners.append([conn, version, time.monotonic()])
            while len(self.listeners) > MAX_LISTENERS:
                _close(self.listeners.pop(0)[0])
        with self.preview.changed:  # the broadcaster looks again: a change it sent before this page joined
            self.preview.changed.notify_all()

    def _event(self) -> tuple[int, bytes]:
        state = self.preview.state()
        state["server"] = self.instance
        data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        return state["version"], f"event: state\ndata: {data}\n\n".encode()

    def _broadcast(self) -> None:
        preview = self.preview
        sent = -1
        while not self.stopping.is_set():
            with preview.changed:
                if preview.version == sent:
                    preview.changed.wait(KEEPALIVE / 3)
            if self.stopping.is_set():
                break
            version, data = self._event()
            sent = version
            now = time.monotonic()
            with self.lock:
                listeners = list(self.listeners)
            gone = []
            for entry in listeners:
                conn, had, last = entry
                try:
                    if had != version:
                        conn.sendall(data)
                        entry[1], entry[2] = version, now
                    elif now - last >= KEEPALIVE:
                        conn.sendall(b": still here\n\n")
                        entry[2] = now
                except OSError:  # the page went away, or takes nothing: it is let go (a live page reconnects)
                    gone.append(entry)
            if gone:
                with self.lock:
                    self.listeners = [e for e in self.listeners if e not in gone]
                for entry in gone:
                    _close(entry[0])

    # --------------------------------------------------------------------------------------- stopping

    def shutdown(self) -> None:
        """Stop serving (from another thread): the loop ends, every page is let go."""
        self.stopping.set()
        with self.preview.changed:
            self.preview.changed.notify_all()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        self._stopped.wait(5)

    def server_close(self) -> None:
        self.stopping.set()
        self.workers.shutdown(wait=False, cancel_futures=True)
        with self.lock:
            listeners, self.listeners = self.listeners, []
        for conn, *_ in listeners:
            _close(conn)
        for s in (self.socket, self._wake_r, self._wake_w):
            _close(s)


def _close(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        conn.close()
