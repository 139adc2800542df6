"""Where the session's server comes from, said in one line of the report header: SANDBOX_URL, then a
command line named or installed, then npx."""

import os
import re
import shlex

import pytest

FAKE_URL = "http://127.0.0.1:1"
USES_THE_SERVER = f"""
def test_url(sandbox_server):
    assert sandbox_server.url == "{FAKE_URL}"
"""


def fake_server(path, pid_file=None):
    """A command line that prints a url and waits (writing its pid first, when asked)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record = f"writeFileSync({str(pid_file)!r}, String(process.pid));\n" if pid_file else ""
    path.write_text(
        "import { writeFileSync } from 'node:fs';\n"
        f"{record}console.log('{FAKE_URL}');\nsetInterval(() => {{}}, 1000);\n",
        encoding="utf-8",
    )
    return path


def program(path, body):
    """An executable shell script."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def source_lines(result):
    """The lines that say where the server comes from (not the summary's `pid N at URL` lines)."""
    return [
        line
        for line in result.outlines
        if line.startswith("unified-api-sandbox: ") and not re.match(r"unified-api-sandbox: pid ", line)
    ]


def has_ended(pid):
    """Whether a process has exited: gone, or a zombie its new parent has not reaped yet (Linux)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    if not os.path.isdir("/proc"):
        return False  # it exists, and no /proc says whether it is a zombie
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True  # reaped in between


def run(pytester, with_plugin, *args):
    return pytester.runpytest(*with_plugin, "-p", "no:cacheprovider", *args)


def test_sandbox_url_comes_before_an_installed_package(pytester, inner_env, with_plugin):
    fake_server(pytester.path / "node_modules" / "unified-api-sandbox" / "dist" / "cli.mjs")
    inner_env.setenv("SANDBOX_URL", "http://127.0.0.1:9")
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = run(pytester, with_plugin)
    result.assert_outcomes(passed=1)
    assert source_lines(result) == [
        "unified-api-sandbox: SANDBOX_URL: http://127.0.0.1:9 (running already; nothing started)"
    ]


def test_an_installed_package_is_found_from_the_rootdir_up(pytester, inner_env, with_plugin):
    cli = fake_server(pytester.path / "node_modules" / "unified-api-sandbox" / "dist" / "cli.mjs")
    pytester.mkdir("suite")
    (pytester.path / "suite" / "test_one.py").write_text(USES_THE_SERVER, encoding="utf-8")
    result = run(pytester, with_plugin, "--rootdir", "suite", "suite")
    result.assert_outcomes(passed=1)
    assert source_lines(result) == [
        f"unified-api-sandbox: installed package: node {cli} (found from the rootdir up)"
    ]
    result.stdout.fnmatch_lines([f"unified-api-sandbox: pid * at {FAKE_URL}: stopped, exit code *"])


def test_a_named_command_line_comes_before_an_installed_package(pytester, inner_env, with_plugin):
    fake_server(pytester.path / "node_modules" / "unified-api-sandbox" / "dist" / "cli.mjs")
    named = fake_server(pytester.path / "elsewhere" / "cli.mjs")
    inner_env.setenv("SANDBOX_CLI", str(named))
    pytester.makepyfile(USES_THE_SERVER)
    result = run(pytester, with_plugin)
    result.assert_outcomes(passed=1)
    assert source_lines(result) == [f"unified-api-sandbox: installed package: node {named} (SANDBOX_CLI)"]


def test_a_bin_entry_runs_as_a_program_and_stops_with_its_child(pytester, inner_env, with_plugin):
    # A shim that runs node as its child, as npx does: stopping the shim alone would leave node running.
    server_pid = pytester.path / "server.pid"
    cli = fake_server(pytester.path / "lib" / "cli.mjs", pid_file=server_pid)
    shim = program(
        pytester.path / "node_modules" / ".bin" / "unified-api-sandbox", f'node {shlex.quote(str(cli))} "$@"'
    )
    pytester.makepyfile(USES_THE_SERVER)
    result = run(pytester, with_plugin)
    result.assert_outcomes(passed=1)
    assert source_lines(result) == [
        f"unified-api-sandbox: installed package: {shim} (found from the rootdir up)"
    ]
    assert has_ended(int(server_pid.read_text(encoding="utf-8")))


def test_npx_runs_the_package_when_none_is_installed(pytester, inner_env, with_plugin):
    server_pid, called = pytester.path / "server.pid", pytester.path / "npx.args"
    cli = fake_server(pytester.path / "lib" / "cli.mjs", pid_file=server_pid)
    npx = program(
        pytester.path / "bin" / "npx",
        f'echo "$*" > {shlex.quote(str(called))}\nshift 2\nnode {shlex.quote(str(cli))} "$@"',
    )
    inner_env.setenv("PATH", f"{npx.parent}{os.pathsep}{os.environ['PATH']}")
    pytester.makepyfile(USES_THE_SERVER)
    result = run(pytester, with_plugin)
    result.assert_outcomes(passed=1)
    assert source_lines(result) == [
        "unified-api-sandbox: npx: npx --yes unified-api-sandbox "
        f"(no installed package from {pytester.path} up)"
    ]
    assert called.read_text(encoding="utf-8").split() == [
        "--yes", "unified-api-sandbox", "--port", "0", "--quiet"
    ]
    assert has_ended(int(server_pid.read_text(encoding="utf-8")))


def test_without_npx_the_error_says_what_to_install(pytester, inner_env, with_plugin):
    empty = pytester.mkdir("empty")
    inner_env.setenv("PATH", str(empty))
    pytester.makepyfile(USES_THE_SERVER)
    result = run(pytester, with_plugin)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*no npx on the PATH*npm install --save-dev unified-api-sandbox*SANDBOX_CLI*SANDBOX_URL*"]
    )


@pytest.mark.parametrize("name", ["--sandbox-cli", "ini sandbox_cli"])
def test_the_option_and_the_ini_name_a_command_line_too(pytester, inner_env, with_plugin, name):
    named = fake_server(pytester.path / "named" / "cli.mjs")
    inner_env.setenv("SANDBOX_CLI", str(pytester.path / "not-this-one.mjs"))
    pytester.makepyfile(USES_THE_SERVER)
    if name == "--sandbox-cli":
        result = run(pytester, with_plugin, "--sandbox-cli", "named/cli.mjs")
    else:
        pytester.makeini("[pytest]\nsandbox_cli = named/cli.mjs\n")
        result = run(pytester, with_plugin)
    result.assert_outcomes(passed=1)
    assert source_lines(result) == [f"unified-api-sandbox: installed package: node {named} ({name})"]
