"""The plugin from this folder's package, with or without ``-p`` or an installed entry point."""

import sys
from pathlib import Path

PLUGIN = "unified_api_sandbox_pytest.plugin"

# Importable without installing the package or setting PYTHONPATH.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])
if _PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, _PACKAGE_ROOT)

# Loaded already by `-p unified_api_sandbox_pytest.plugin` or the installed entry point: not twice.
pytest_plugins = [] if PLUGIN in sys.modules else [PLUGIN]
