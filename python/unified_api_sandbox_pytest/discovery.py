"""Where the sandbox comes from: a command line named or installed, else ``npx``.

``find_launcher`` looks, in order, at a path the user named (``--sandbox-cli``, ini ``sandbox_cli``,
``SANDBOX_CLI``), then from the rootdir (and the folder pytest was started in) up to the root of
the file system, in each folder at ``node_modules/unified-api-sandbox/dist/cli.mjs``, at
``node_modules/.bin/unified-api-sandbox`` and at a clone of the sandbox (its ``dist/cli.mjs``); it
falls back on ``npx --yes unified-api-sandbox``. A running server named by ``SANDBOX_URL`` comes
before all of them; the plugin sees to that.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Optional, Sequence, Tuple, Union

from .server import SandboxServer, SandboxStartError

__all__ = ["Launcher", "find_launcher", "PACKAGE"]

PACKAGE = "unified-api-sandbox"
#: The command that runs the published package, downloading it into npm's cache when it is not there.
NPX = ("npx", "--yes", PACKAGE)
#: Seconds a server started with npx has to print its url: the first run downloads the package.
NPX_START_TIMEOUT = 120.0
START_TIMEOUT = 30.0
#: Files node runs as they are; anything else named is a program (a shell shim of node_modules/.bin).
_NODE_SUFFIXES = (".mjs", ".cjs", ".js")

INSTALLED = "installed package"
CLONE = "clone of the sandbox"
FROM_NPX = "npx"


@dataclass(frozen=True)
class Launcher:
    """How a sandbox is started: ``node`` and a command line file, or a program that runs it.

    ``kind`` is ``installed package``, ``clone of the sandbox`` or ``npx``; ``found_by`` says how
    it was found. A program (npx, a ``node_modules/.bin`` shim) runs the server as its child, so it
    is started in a process group of its own and stopped with the whole group.
    """

    kind: str
    found_by: str
    cli: Optional[Path] = None
    program: Tuple[str, ...] = ()
    node: str = "node"

    @property
    def command(self) -> Tuple[str, ...]:
        return (self.node, str(self.cli)) if self.cli is not None else self.program

    @property
    def start_timeout(self) -> float:
        """The default time to wait for the url: longer for npx, which may download the package."""
        return NPX_START_TIMEOUT if self.kind == FROM_NPX else START_TIMEOUT

    def describe(self) -> str:
        """One line: where the server comes from, the command and how it was found."""
        return f"{self.kind}: {' '.join(self.command)} ({self.found_by})"

    def start(
        self,
        args: Sequence[str] = (),
        *,
        timeout: Optional[float] = None,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[Union[str, os.PathLike]] = None,
    ) -> SandboxServer:
        """Starts a server (``--port 0 --quiet`` and ``args``) and waits for its url."""
        wait = self.start_timeout if timeout is None else timeout
        if self.cli is not None:
            return SandboxServer.start(self.cli, node=self.node, args=args, timeout=wait, env=env, cwd=cwd)
        program = self.program
        if self.kind == FROM_NPX:
            # Looked for here: on Windows npx is npx.cmd, which a bare "npx" does not start.
            found = shutil.which(program[0], path=(os.environ if env is None else env).get("PATH"))
            if found is None:
                raise SandboxStartError(
                    f"no npx on the PATH to run `{' '.join(program)}` ({self.found_by}): "
                    f"npm install --save-dev {PACKAGE}, name its dist/cli.mjs with SANDBOX_CLI, or "
                    "give the url of a running sandbox in SANDBOX_URL"
                )
            program = (found, *program[1:])
        return SandboxServer.run(program, args=args, timeout=wait, env=env, cwd=cwd, group=True)


def find_launcher(
    rootdir: Path,
    invoked: Optional[Path] = None,
    *,
    named: Optional[Tuple[Path, str]] = None,
    node: str = "node",
) -> Launcher:
    """The launcher of the first sandbox found (see the module's description).

    ``named`` is a path the user gave and where it was given (``SANDBOX_CLI``...): it is taken even
    when missing, so that starting it says so rather than running something else.
    """
    if named is not None:
        return _launcher_of(named[0], INSTALLED, named[1], node)
    found_by = "found from the rootdir up"
    for folder in _folders(rootdir, invoked):
        installed = folder / "node_modules" / PACKAGE / "dist" / "cli.mjs"
        if _is_file(installed):
            return Launcher(INSTALLED, found_by, cli=installed, node=node)
        for name in _bin_names():
            shim = folder / "node_modules" / ".bin" / name
            if _is_file(shim):
                return _launcher_of(shim, INSTALLED, found_by, node)
        if _is_clone(folder) and _is_file(folder / "dist" / "cli.mjs"):
            return Launcher(CLONE, found_by, cli=folder / "dist" / "cli.mjs", node=node)
    return Launcher(FROM_NPX, f"no installed package from {rootdir} up", program=NPX)


def _launcher_of(path: Path, kind: str, found_by: str, node: str) -> Launcher:
    """node for a script (a link of node_modules/.bin to one included), the file itself for a program."""
    if _is_file(path) and path.resolve().suffix not in _NODE_SUFFIXES:
        return Launcher(kind, found_by, program=(str(path),))
    return Launcher(kind, found_by, cli=path, node=node)


def _folders(rootdir: Path, invoked: Optional[Path]) -> Iterator[Path]:
    """The rootdir and its parents, then those of the folder pytest was started in, each once."""
    seen = set()
    for start in (rootdir, invoked):
        if start is None:
            continue
        for folder in (start, *start.parents):
            if folder not in seen:
                seen.add(folder)
                yield folder


def _is_file(path: Path) -> bool:
    """Whether a file is there; a folder this user may not look into has none."""
    try:
        return path.is_file()
    except OSError:
        return False


def _bin_names() -> Tuple[str, ...]:
    return (f"{PACKAGE}.cmd", PACKAGE) if os.name == "nt" else (PACKAGE,)


def _is_clone(folder: Path) -> bool:
    try:
        return json.loads((folder / "package.json").read_text(encoding="utf-8")).get("name") == PACKAGE
    except (OSError, ValueError, AttributeError):
        return False
