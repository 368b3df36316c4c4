"""Running a piece of test code in a fresh Python process, as the ``paddock`` command runs: one BLAS thread (the
command line sets it before numpy loads), nothing the test runner's own process has imported or set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap


def run(code: str, *args, timeout: float = 300) -> dict:
    """Run ``code`` (dedented) in a fresh process with ``args`` as sys.argv[1:]; what it printed as JSON on its
    last line. A failure shows the process's stderr."""
    return run_lines(code, *args, timeout=timeout)[-1]


def run_lines(code: str, *args, timeout: float = 300) -> list:
    """As :func:`run`: every line the process printed that is JSON, read as JSON."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
