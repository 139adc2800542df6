"""The plugin from this folder's package, with or without ``-p`` or an installed entry point; the
fixtures of the tests that run pytest inside pytest."""

import os
import sys
from pathlib import Path

import pytest

PLUGIN = "unified_api_sandbox_pytest.plugin"

# Importable without installing the package or setting PYTHONPATH.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])
if _PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, _PACKAGE_ROOT)

# Loaded already by `-p unified_api_sandbox_pytest.plugin` or the installed entry point: not twice.
pytest_plugins = ["pytester"] if PLUGIN in sys.modules else ["pytester", PLUGIN]


@pytest.fixture
def inner_env(monkeypatch):
    """An inner pytest run imports the plugin from this folder's package, and finds no server named."""
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", _PACKAGE_ROOT + (os.pathsep + path if path else ""))
    for name in ("SANDBOX_URL", "SANDBOX_ADMIN_TOKEN", "SANDBOX_CLI", "SANDBOX_NODE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def with_plugin(pytestconfig):
    """The arguments that load the plugin in an inner run: none where it is installed (it loads itself)."""
    installed = pytestconfig.pluginmanager.get_plugin("unified_api_sandbox") is not None
    return [] if installed else ["-p", "unified_api_sandbox_pytest.plugin"]
