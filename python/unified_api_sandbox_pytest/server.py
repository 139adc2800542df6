"""A sandbox server: a process started here (``SandboxServer.start``), or one already running.

``SandboxServer.start(cli)`` runs ``node <cli> --port 0 --quiet`` and reads the url it prints once
it listens; ``stop()`` ends it. ``SandboxServer.connect(url)`` names a server someone else runs.
"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Deque, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import requests

from .client import World, _bearer, _call

__all__ = ["SandboxServer", "SandboxStartError"]


class SandboxStartError(RuntimeError):
    """The sandbox command line did not print its url in time, or exited first.

    ``pid`` is the process that was started (None if none was), stopped by then; ``stderr`` the last
    lines it wrote there.
    """

    def __init__(self, message: str, pid: Optional[int] = None, stderr: str = ""):
        super().__init__(message)
        self.pid = pid
        self.stderr = stderr


# ---------------------------------------------------------------------------------------------------
# The server process.


class SandboxServer:
    """A sandbox: either a process this object started, or one already running.

    ``url`` is its base url, ``admin_token`` the bearer token its worlds API needs (None when the
    server was started without ``--admin-token``), ``pid`` the process id (None for a server this
    object did not start).
    """

    def __init__(
        self,
        url: str,
        admin_token: Optional[str] = None,
        process: Optional[subprocess.Popen] = None,
        *,
        group: bool = False,
    ):
        self.url = url.rstrip("/")
        self.admin_token = admin_token or None
        self.process = process
        #: Whether the process leads a process group of its own, ended whole by ``stop()``.
        self.group = group
        self._stderr: Deque[str] = collections.deque(maxlen=200)
        self._readers: List[threading.Thread] = []
        self._stdout_reader: Optional[threading.Thread] = None
        self.exit_code: Optional[int] = None

    @property
    def pid(self) -> Optional[int]:
        return self.process.pid if self.process is not None else None

    @property
    def started(self) -> bool:
        """Whether this object started the process (and so stops it)."""
        return self.process is not None

    @property
    def stderr(self) -> str:
        """The last lines the process wrote on stderr."""
        return "".join(self._stderr)

    @classmethod
    def connect(cls, url: str, admin_token: Optional[str] = None) -> "SandboxServer":
        """A sandbox someone else runs: nothing is started or stopped."""
        return cls(url, admin_token)

    @classmethod
    def start(
        cls,
        cli: Union[str, os.PathLike],
        *,
        node: str = "node",
        args: Sequence[str] = (),
        timeout: float = 30.0,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[Union[str, os.PathLike]] = None,
    ) -> "SandboxServer":
        """Runs ``node <cli> --port 0 --quiet <args>`` and waits for the url it prints.

        Node runs the file directly: the server is the process started, and ``stop()`` ends it
        alone. ``--admin-token T`` among ``args`` becomes ``admin_token``.
        """
        cli_path = Path(cli)
        if not cli_path.is_file():
            raise SandboxStartError(
                f"the sandbox command line {cli_path} does not exist: install it "
                "(npm install unified-api-sandbox) or name it with --sandbox-cli, the sandbox_cli "
                "ini option or SANDBOX_CLI"
            )
        return cls.run([node, str(cli_path)], args=args, timeout=timeout, env=env, cwd=cwd, group=False)

    @classmethod
    def run(
        cls,
        program: Sequence[str],
        *,
        args: Sequence[str] = (),
        timeout: float = 30.0,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[Union[str, os.PathLike]] = None,
        group: bool = True,
    ) -> "SandboxServer":
        """Runs ``<program> --port 0 --quiet <args>`` and waits for the url it prints.

        ``program`` is a command and its first arguments: ``["npx", "--yes", "unified-api-sandbox"]``,
        a ``node_modules/.bin`` entry. With ``group`` the process leads a process group of its own
        and ``stop()`` ends the whole group: npx runs the server as a grandchild (npm, a shell, then
        node), which a signal to npx alone would leave running.
        """
        command = [*program, "--port", "0", "--quiet", *args]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                env=dict(env) if env is not None else None,
                cwd=cwd,
                # A session of its own (POSIX); on Windows the tree is ended with taskkill instead.
                start_new_session=group and os.name != "nt",
            )
        except OSError as error:
            raise SandboxStartError(f"could not run {program[0]!r}: {error}") from error

        server = cls("", _admin_token_of(args), process, group=group)
        first_line, got_line = server._read_output()
        got_line.wait(timeout)
        url = first_line[0].strip() if first_line else ""
        if not url.startswith(("http://", "https://")):
            if got_line.is_set():
                try:
                    process.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
            reason = (
                f"printed {url!r} instead of its url"
                if url
                else f"exited with code {process.poll()} before printing its url"
                if process.poll() is not None
                else f"printed no url within {timeout:g} s"
            )
            server.stop()
            raise SandboxStartError(
                f"the sandbox did not start: `{' '.join(command)}` {reason}\n"
                f"--- its stderr ---\n{server.stderr or '(empty)'}",
                pid=process.pid,
                stderr=server.stderr,
            )
        server.url = url.rstrip("/")
        return server

    def _read_output(self) -> Tuple[Deque[str], threading.Event]:
        """Reads the process's output in two threads: its first line of stdout, the last of stderr.

        The rest of stdout is drained so that the process never blocks on a full pipe. The event is
        set at the first line, or at the end of stdout.
        """
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout, process.stderr
        first_line: Deque[str] = collections.deque(maxlen=1)
        got_line = threading.Event()

        def read_stdout() -> None:
            try:
                for line in stdout:
                    if not got_line.is_set():
                        first_line.append(line)
                        got_line.set()
            except (OSError, ValueError):
                pass
            finally:
                got_line.set()

        def read_stderr() -> None:
            try:
                for line in stderr:
                    self._stderr.append(line)
            except (OSError, ValueError):
                pass

        self._stdout_reader = threading.Thread(target=read_stdout, name="sandbox-stdout", daemon=True)
        self._readers = [
            self._stdout_reader,
            threading.Thread(target=read_stderr, name="sandbox-stderr", daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        return first_line, got_line

    def stop(self, timeout: float = 5.0) -> Optional[int]:
        """Terminates the process (its group too), kills it after ``timeout`` s; its exit code.

        None for a server this object did not start.
        """
        process = self.process
        if process is None:
            return None
        if self.exit_code is None:
            if self.group:
                self._end_group(timeout)
            elif process.poll() is None:
                try:
                    process.terminate()
                    process.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=timeout)
                except ProcessLookupError:
                    pass
        self.exit_code = process.wait()
        # The readers end at the end of the output (the last lines of stderr with them); the pipes
        # are closed once they have.
        for reader in self._readers:
            reader.join(timeout=2)
        if not any(reader.is_alive() for reader in self._readers):
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        return self.exit_code

    def _end_group(self, timeout: float) -> None:
        """Terminates the process and every process of its group; kills what is left after ``timeout`` s."""
        process = self.process
        assert process is not None
        if os.name == "nt":
            if process.poll() is None:
                subprocess.run(
                    ["taskkill", "/PID", str(process.pid), "/T", "/F"], capture_output=True, check=False
                )
            process.wait(timeout=timeout)
            return
        deadline = time.monotonic() + timeout
        _signal_group(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        # The server may outlive the process started (npx's node is its grandchild), and it holds
        # the stdout pipe: the end of stdout is the end of the last process that wrote there.
        reader = self._stdout_reader
        if reader is not None:
            reader.join(timeout=max(0.0, deadline - time.monotonic()))
        if process.poll() is None or (reader is not None and reader.is_alive()):
            _signal_group(process.pid, signal.SIGKILL)

    def create_world(self, **options: Any) -> "World":
        """``World.create`` on this sandbox."""
        return World.create(self.url, admin_token=self.admin_token, **options)

    def list_worlds(self) -> Dict[str, Any]:
        """``GET /__sandbox/worlds``: the live worlds, without their secrets."""
        return _call(requests, "GET", f"{self.url}/__sandbox/worlds", _bearer(self.admin_token))

    def __enter__(self) -> "SandboxServer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"SandboxServer(url={self.url!r}, pid={self.pid!r})"


def _admin_token_of(args: Sequence[str]) -> Optional[str]:
    args = list(args)
    for i, arg in enumerate(args):
        if arg == "--admin-token" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--admin-token="):
            return arg.split("=", 1)[1]
    return None


def _signal_group(group: int, signum: int) -> None:
    """Sends ``signum`` to a process group, if it still has a process."""
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        pass
