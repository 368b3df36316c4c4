"""A second core's help: a forked child process working beside the command, answering through shared memory.

Paddock's commands are Python on one thread; a machine has two cores or more. Where part of a command's work
needs nothing the rest of it makes later — parsing the centre-line CSV the command line names
(:mod:`generator.csvfast`), drawing and rasterising some of a run's sheets (:mod:`generator.pipeline`) — a child
forked from the command does it at the same time. The child is only ever a head start: whatever it does not
answer, the command does itself, with the same code, so the output is the same either way. A child is forked only
where that is safe and useful: Linux (``fork``, ``/proc``), a process of one thread (a fork copies no other
thread, and a lock another held would never be let go in the child), two cores or more (on one, the child would
only take turns with the command).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable


def can_fork() -> bool:
    """Whether a child may be forked to work beside this process now (see above)."""
    try:
        return (
            hasattr(os, "fork")
            and len(os.sched_getaffinity(0)) > 1
            and len(os.listdir("/proc/self/task")) == 1  # Linux; one thread
        )
    except (AttributeError, OSError):
        return False


class Child:
    """A forked child running ``work(shared)``, where ``shared`` is anonymous memory of ``size`` bytes both
    processes see (only the pages written are ever made); ``work`` returns a non-negative int, the child's answer
    (what it put where is ``work``'s own convention). Start one with :meth:`start`; end with :meth:`answer` or
    :meth:`stop`, or leave it to :func:`reap_all`."""

    def __init__(self, pid: int, answer_fd: int, shared, pidfd: int | None) -> None:
        self.pid, self.shared = pid, shared
        self._fd: int | None = answer_fd
        self._pidfd = pidfd  # names this child even once its pid is another process's (Linux 5.3+)
        self._answer: int | None = None
        self._reaped = False

    @classmethod
    def start(cls, work: Callable[[object], int], size: int) -> Child | None:
        """The child at work, or None when none can be forked (see :func:`can_fork`)."""
        import mmap
        import signal

        if not can_fork():
            return None
        try:
            shared = mmap.mmap(-1, max(size, 1))
            answer, told = os.pipe()
        except (OSError, ValueError):  # no memory or descriptors to spare: no child
            return None
        # Ctrl-C (or a TERM) arriving just as the fork returns must not reach the child's Python: it would unwind
        # through the caller's code in a second copy of the program. Held until the child's handlers are the
        # system's own (the signal then simply ends it) and, in the command, until the child is on record.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            os.close(answer)
            os.close(told)
            return None
        if pid == 0:  # the child: work, tell the answer, leave at once (no cleanup of the parent's objects)
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                _end_with_parent(parent)
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
                os.close(answer)
                n = int(work(shared))
                os.write(told, n.to_bytes(8, "little"))
                code = 0
            finally:
                os._exit(code)
        os.close(told)
        pidfd = None
        with contextlib.suppress(AttributeError, OSError):
            pidfd = os.pidfd_open(pid)
        child = cls(pid, answer, shared, pidfd)
        _LIVE[pid] = child
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a Ctrl-C held till now is raised here
        except BaseException:
            child.stop()
            raise
        return child

    def answer(self, timeout: float | None = None) -> int | None:
        """The child's answer, waiting for it (``timeout`` seconds at most) if it is still at work; None if it
        ended without one, or did not answer in time (it is stopped then)."""
        import select
        import time

        if self._fd is None:
            return self._answer
        head = b""
        until = None if timeout is None else time.monotonic() + timeout
        try:
            waiting = select.poll()  # (not select(): a descriptor numbered 1024 or more is out of its range)
            waiting.register(self._fd, select.POLLIN | select.POLLHUP | select.POLLERR)
            while len(head) < 8:
                if until is not None:
                    left_ms = max(0, int((until - time.monotonic()) * 1000))
                    if not waiting.poll(left_ms):
                        self.stop()
                        return None
                part = os.read(self._fd, 8 - len(head))
                if not part:
                    break
                head += part
        except (OSError, ValueError):
            pass
        self._close()
        self._answer = int.from_bytes(head, "little") if len(head) == 8 else None
        self._reap(wait=False)  # it is leaving: reaped now if it is gone, else later (reap_all)
        return self._answer

    def stop(self) -> None:
        """End the child now, at work or not, and reap it."""
        import signal

        self._close()
        if not self._reaped:
            with contextlib.suppress(OSError):
                if self._pidfd is not None:
                    signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
                else:
                    os.kill(self.pid, signal.SIGKILL)
            self._reap(wait=True)

    def _close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def _reap(self, wait: bool) -> None:
        if self._reaped:
            return
        try:
            if os.waitpid(self.pid, 0 if wait else os.WNOHANG)[0] == 0:
                return  # still leaving
        except ChildProcessError:
            pass
        except OSError:
            return
        self._reaped = True  # its pid may now be another process's: never signalled again
        _LIVE.pop(self.pid, None)
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None


def _end_with_parent(parent: int) -> None:
    """In a child: be ended when the command ends, however it ends (killed, too): a helper has nothing to do
    once nobody waits for it, and must not hold the command's output open (``paddock … | cat``)."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG (Linux)
    if os.getppid() != parent:  # the command ended before that took hold
        os._exit(1)


#: Children not yet reaped, by pid.
_LIVE: dict[int, Child] = {}


def reap_all() -> None:
    """Stop and reap every child still here: none is left behind in a long-lived process (the tests, a tool
    calling the command line). The command line calls this when a command ends."""
    for child in list(_LIVE.values()):
        if child._fd is None:  # answered: only leaving
            child._reap(wait=True)
        else:
            child.stop()
