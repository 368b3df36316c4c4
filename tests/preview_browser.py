"""Driving ``paddock preview`` in a real browser: Debian's headless Chromium through its chromedriver and selenium
(the browser tests and ``benchmarks/bench_preview.py`` share this).

Where Chromium is present they run; where Chromium, its driver or selenium is missing they skip and say which
(``pytest -rs``). ``PADDOCK_BROWSER_TESTS=1`` makes a missing browser a failure instead, for a machine that must
run them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: The 2-point lines across the track in the board's units layer: one per unit but the first (the start line).
UNIT_LINES_JS = """
return Array.from(document.querySelectorAll('#sheet #layer-units polyline'))
  .filter(p => p.getAttribute('points').trim().split(/\\s+/).length === 2).length + 1;
"""


def required() -> bool:
    """Must the browser tests run here (``PADDOCK_BROWSER_TESTS=1``), rather than skip?"""
    return os.environ.get("PADDOCK_BROWSER_TESTS", "").lower() not in ("", "0", "false", "no")


def missing() -> str | None:
    """What this machine lacks to run the browser tests (None: nothing)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for exe, package in ((chromium(), "chromium"), (chromedriver(), "chromium-driver")):
        if exe is None:
            return f"Chromium is not installed (apt-get install chromium chromium-driver: {package} missing)"
    return None


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromedriver() -> str | None:
    return shutil.which("chromedriver")


def browser(width: int = 1440, height: int = 880):
    """A headless Chromium (a new empty profile; nothing fetched from the network), driven by selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="paddock-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(options=options, service=Service(chromedriver()))
    driver.paddock_profile = profile
    return driver


def close(driver) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver.paddock_profile, ignore_errors=True)


class Server:
    """``paddock preview SPEC`` in a process of its own on a free port; its terminal lines kept in :attr:`lines`."""

    def __init__(self, spec: Path, *args: str, port: int = 0) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "generator", "preview", spec.name, "--port", str(port), *args],  # in its folder
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            cwd=str(spec.parent),
            env=env,
            text=True,
        )
        self.lines: list[str] = []
        self.url = None
        ready = threading.Event()

        def read() -> None:
            for line in self.proc.stderr:
                self.lines.append(line.rstrip("\n"))
                found = re.search(r"http://127\.0\.0\.1:\d+/", line)
                if found and self.url is None:
                    self.url = found.group(0)
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(WAIT) or self.url is None:
            self.stop()
            raise RuntimeError("paddock preview did not start: " + "\n".join(self.lines))

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))

    def rss_kb(self) -> int:
        """The server's resident memory (Linux: /proc)."""
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", text).group(1))

    def threads(self) -> int:
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"Threads:\s+(\d+)", text).group(1))

    def children(self) -> list[int]:
        """Processes whose parent is the server (Linux: /proc)."""
        out = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                out.append(int(stat.parent.name))
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def board_version(driver) -> int:
    return int(driver.execute_script("return +(document.getElementById('sheet').dataset.version || 0)"))


#: How long a browser test waits for what it expects: a bound on waiting for a hang, never a measure of speed (a
#: board built on a loaded machine may take a minute; how soon it shows is benchmarks/bench_preview.py's business).
WAIT = 180.0


def wait_for(driver, script: str, timeout: float = WAIT, poll: float = 0.02):
    """Run ``script`` until it returns something truthy; that value (None on time-out)."""
    end = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script)
        if value or time.monotonic() > end:
            return value or None
        time.sleep(poll)


def save(path: Path, text: str) -> float:
    """Save ``text`` as an editor does (a new file renamed over the old); the wall-clock ms it was saved at."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return time.time() * 1000


#: The ms (wall clock) the page last put a board on screen, and which board: set after the frame it is painted in.
SHOWN_JS = "return window.pvShown || null"
