"""Starting the server: a clear error when it cannot, the options and markers the plugin reads."""

import os

import pytest

from unified_api_sandbox_pytest import SandboxServer, SandboxStartError


def test_a_missing_command_line_says_where_it_was_looked_for(tmp_path):
    with pytest.raises(SandboxStartError, match="SANDBOX_CLI"):
        SandboxServer.start(tmp_path / "missing" / "cli.mjs")


def test_a_command_line_that_exits_shows_its_stderr(tmp_path):
    cli = tmp_path / "cli.mjs"
    cli.write_text("console.error('cannot listen: EADDRINUSE'); process.exit(3);\n", encoding="utf-8")
    with pytest.raises(SandboxStartError) as failed:
        SandboxServer.start(cli, timeout=20)
    assert "exited with code 3" in str(failed.value)
    assert "cannot listen: EADDRINUSE" in str(failed.value)


def test_a_command_line_that_never_prints_its_url_is_stopped(tmp_path):
    cli = tmp_path / "cli.mjs"
    cli.write_text("setInterval(() => {}, 1000);\n", encoding="utf-8")
    with pytest.raises(SandboxStartError) as failed:
        SandboxServer.start(cli, timeout=1)
    assert "printed no url within 1 s" in str(failed.value)
    with pytest.raises(ProcessLookupError):
        os.kill(failed.value.pid, 0)  # stopped, and waited for


def test_the_marker_and_the_fixtures_in_a_suite_of_their_own(
    pytester, sandbox_server, inner_env, with_plugin
):
    # The inner run uses this run's server instead of starting one.
    inner_env.setenv("SANDBOX_URL", sandbox_server.url)
    if sandbox_server.admin_token:
        inner_env.setenv("SANDBOX_ADMIN_TOKEN", sandbox_server.admin_token)
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.sandbox_world(seed=5, clock="2026-03-01T00:00:00Z")

        def test_module_marker(sandbox_world, sandbox_server):
            assert sandbox_world.seed == 5
            assert sandbox_world.clock.now().isoformat() == "2026-03-01T00:00:00+00:00"
            assert sandbox_server.pid is None

        @pytest.mark.sandbox_world(seed=6)
        def test_closest_marker_wins(sandbox_world):
            assert sandbox_world.seed == 6
            assert sandbox_world.clock.now().isoformat() == "2026-03-01T00:00:00+00:00"

        @pytest.mark.sandbox_world(sead=6)
        def test_unknown_option(sandbox_world):
            pass
        """
    )
    result = pytester.runpytest(*with_plugin, "-p", "no:cacheprovider", "--strict-markers")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*unknown option 'sead'*"])
    result.stdout.fnmatch_lines(
        ["unified-api-sandbox: SANDBOX_URL: http://* (running already; nothing started)"]
    )


def test_the_command_line_is_found_from_the_rootdir_up(pytester, inner_env, with_plugin):
    # A clone: package.json names the sandbox, dist/cli.mjs prints its url and waits.
    pytester.makefile(".json", package='{"name": "unified-api-sandbox"}')
    dist = pytester.mkdir("dist")
    (dist / "cli.mjs").write_text(
        "console.log('http://127.0.0.1:1'); setInterval(() => {}, 1000);\n", encoding="utf-8"
    )
    pytester.mkdir("suite")
    (pytester.path / "suite" / "test_one.py").write_text(
        "def test_url(sandbox_server):\n    assert sandbox_server.url == 'http://127.0.0.1:1'\n",
        encoding="utf-8",
    )
    result = pytester.runpytest(*with_plugin, "-p", "no:cacheprovider", "--rootdir", "suite", "suite")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*unified-api-sandbox: pid * at http://127.0.0.1:1: stopped*"])


def test_a_failed_test_shows_the_last_requests_of_its_world(pytester, sandbox_server, inner_env, with_plugin):
    inner_env.setenv("SANDBOX_URL", sandbox_server.url)
    if sandbox_server.admin_token:
        inner_env.setenv("SANDBOX_ADMIN_TOKEN", sandbox_server.admin_token)
    pytester.makepyfile(
        """
        def test_fails(sandbox_world):
            sandbox_world.faults.add(match={"path": "/consumers"}, effect={"status": 503})
            assert sandbox_world.api.get("/consumers").status_code == 200
        """
    )
    result = pytester.runpytest(*with_plugin, "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*sandbox world world_*: its last 20 requests at most, oldest first*",
            "*POST /token -> 200",
            "*GET /consumers -> 503 (fault fault_1)",
        ]
    )
