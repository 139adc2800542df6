"""pytest fixtures for the unified API sandbox: one server per test process, one world per test.

- ``sandbox_server`` (session): uses the server named by ``SANDBOX_URL`` (and
  ``SANDBOX_ADMIN_TOKEN``) and starts nothing; else starts the installed package (``node <cli>
  --port 0 --quiet``), else ``npx --yes unified-api-sandbox``, and stops it at the end. The report
  header says which in one line.
- ``sandbox_world`` (function): a fresh world for the test (``POST /__sandbox/worlds``), deleted
  after it; ``@pytest.mark.sandbox_world(seed=..., clock=..., fixtures=..., pace=...)`` chooses it.
- ``sandbox_world_factory`` (function): makes more worlds in one test, all deleted after it.

Under pytest-xdist each worker process runs its own session fixtures, so each starts its own server
(or shares ``SANDBOX_URL``); nothing is shared between processes.
"""

from __future__ import annotations

import atexit
import os
import shlex
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import pytest

from . import discovery
from .client import World
from .discovery import Launcher
from .server import SandboxServer

MARKER = "sandbox_world"
#: The options a world takes, as ``POST /__sandbox/worlds`` names them.
WORLD_OPTIONS = ("seed", "fixtures", "clock", "pace", "connection_life", "ttl_seconds")
#: The clock of a world the marker does not set: a manual clock at the machine's current second, so
#: an SDK that checks a token's expiry against the machine's time keeps its token.
DEFAULT_CLOCK = "now"
#: Requests of its world a failed test's report shows.
REPORTED_REQUESTS = 20

_STARTED = pytest.StashKey[List[SandboxServer]]()
#: Where the session's server comes from: the url of SANDBOX_URL, or how to start one.
_SOURCE = pytest.StashKey[Union[str, Launcher]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("unified-api-sandbox", "unified API sandbox")
    group.addoption(
        "--sandbox-cli",
        dest="sandbox_cli",
        default=None,
        help="the sandbox command line to run with node (default: ini sandbox_cli, env SANDBOX_CLI, "
        "node_modules/unified-api-sandbox/dist/cli.mjs or node_modules/.bin/unified-api-sandbox in "
        "the rootdir or a folder above it, dist/cli.mjs of a clone of the sandbox, else npx --yes "
        "unified-api-sandbox)",
    )
    parser.addini("sandbox_cli", "the sandbox command line (dist/cli.mjs), relative to the ini file's folder")
    parser.addini("sandbox_node", "the node executable (default: env SANDBOX_NODE, else node)")
    parser.addini(
        "sandbox_args",
        "more arguments for the sandbox server (e.g. --max-worlds 200), shell-quoted",
    )
    parser.addini(
        "sandbox_start_timeout", "seconds to wait for the server's url (default 30; 120 with npx)"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(seed=None, clock='now', fixtures=None, pace=None, connection_life=None, "
        "ttl_seconds=None): the world the sandbox_world fixture creates for this test",
    )
    config.stash[_STARTED] = []
    config.stash[_SOURCE] = os.environ.get("SANDBOX_URL") or find_launcher(config)


def pytest_report_header(config: pytest.Config) -> str:
    """The one line that says where the session's server comes from."""
    source = config.stash[_SOURCE]
    if isinstance(source, str):
        return f"unified-api-sandbox: SANDBOX_URL: {source} (running already; nothing started)"
    return f"unified-api-sandbox: {source.describe()}"


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    for server in config.stash.get(_STARTED, []):
        state = "still running" if server.exit_code is None else f"stopped, exit code {server.exit_code}"
        terminalreporter.write_line(f"unified-api-sandbox: pid {server.pid} at {server.url}: {state}")


# ---------------------------------------------------------------------------------------------------
# Where the server comes from.


def _ini(config: pytest.Config, name: str) -> str:
    value = config.getini(name)
    return str(value).strip() if value else ""


def find_launcher(config: pytest.Config) -> Launcher:
    """How this run starts a sandbox (``discovery.find_launcher``), from its options and rootdir.

    The option and SANDBOX_CLI are relative to the folder pytest was started in, the ini option to
    the folder of the ini file. ``SANDBOX_URL`` is not looked at: a test may start a server of its
    own beside the one it names.
    """
    rootdir = Path(str(config.rootpath))
    invoked = Path(str(config.invocation_params.dir))
    node = _ini(config, "sandbox_node") or os.environ.get("SANDBOX_NODE") or "node"
    return discovery.find_launcher(rootdir, invoked, named=_named_cli(config, rootdir, invoked), node=node)


def _named_cli(config: pytest.Config, rootdir: Path, invoked: Path) -> Optional[Tuple[Path, str]]:
    """The command line the user named, and where: the option, the ini, else SANDBOX_CLI."""
    option = config.getoption("sandbox_cli")
    if option:
        return _absolute(option, invoked), "--sandbox-cli"
    ini = _ini(config, "sandbox_cli")
    if ini:
        base = Path(str(config.inipath)).parent if config.inipath else rootdir
        return _absolute(ini, base), "ini sandbox_cli"
    env = os.environ.get("SANDBOX_CLI")
    if env:
        return _absolute(env, invoked), "SANDBOX_CLI"
    return None


def _absolute(path: str, base: Path) -> Path:
    named = Path(path).expanduser()
    return named if named.is_absolute() else base / named


# ---------------------------------------------------------------------------------------------------
# Fixtures.


@pytest.fixture(scope="session")
def sandbox_server(pytestconfig: pytest.Config) -> Iterator[SandboxServer]:
    """The sandbox of this test process: started once, stopped at the end (or SANDBOX_URL's)."""
    source = pytestconfig.stash[_SOURCE]
    if isinstance(source, str):
        yield SandboxServer.connect(source, os.environ.get("SANDBOX_ADMIN_TOKEN"))
        return
    timeout = _ini(pytestconfig, "sandbox_start_timeout")
    args = shlex.split(_ini(pytestconfig, "sandbox_args"))
    server = source.start(args, timeout=float(timeout) if timeout else None)
    pytestconfig.stash[_STARTED].append(server)
    # Stopped at the end of the session; also when the interpreter exits without tearing it down.
    atexit.register(server.stop)
    try:
        yield server
    finally:
        server.stop()
        atexit.unregister(server.stop)


def _marker_options(node: Any) -> Dict[str, Any]:
    """The marker's keywords, the closest marker first (a test's over its class's over its module's)."""
    options: Dict[str, Any] = {}
    for marker in node.iter_markers(MARKER):
        if marker.args:
            raise pytest.UsageError(f"@pytest.mark.{MARKER} takes keywords only ({', '.join(WORLD_OPTIONS)})")
        for name, value in marker.kwargs.items():
            if name not in WORLD_OPTIONS:
                raise pytest.UsageError(
                    f"@pytest.mark.{MARKER}: unknown option {name!r} (one of {', '.join(WORLD_OPTIONS)})"
                )
            options.setdefault(name, value)
    return options


@pytest.fixture
def sandbox_world_factory(sandbox_server: SandboxServer) -> Iterator[Callable[..., World]]:
    """``make(seed=..., clock=..., fixtures=..., pace=...)``: more worlds, each deleted after the test."""
    made: List[World] = []

    def make(**options: Any) -> World:
        options.setdefault("clock", DEFAULT_CLOCK)
        world = sandbox_server.create_world(**options)
        made.append(world)
        return world

    try:
        yield make
    finally:
        errors = []
        for world in reversed(made):
            try:
                world.delete()
            except Exception as error:  # the other worlds still go
                errors.append(error)
        if errors:
            raise errors[0]


@pytest.fixture
def sandbox_world(request: pytest.FixtureRequest, sandbox_world_factory: Callable[..., World]) -> World:
    """A world of its own for this test, as ``@pytest.mark.sandbox_world(...)`` describes it."""
    return sandbox_world_factory(**_marker_options(request.node))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    """A failed test's report shows the last requests of its world, before the world is deleted."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    world = getattr(item, "funcargs", {}).get("sandbox_world")
    if not isinstance(world, World) or world.deleted:
        return
    title = f"sandbox world {world.id}: its last {REPORTED_REQUESTS} requests at most, oldest first"
    try:
        entries = world.requests(page=1, size=REPORTED_REQUESTS)
    except Exception as error:  # the report goes on without them
        report.sections.append((title, f"(not read: {error})"))
        return
    lines = [
        f"{entry['time']}  {entry['method']} {entry['path']} -> {entry['status']}"
        + (f" (fault {entry['fault']})" if entry.get("fault") else "")
        for entry in reversed(entries)
    ]
    report.sections.append((title, "\n".join(lines) or "(none)"))
