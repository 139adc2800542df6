"""pytest fixtures and a small client for the unified API sandbox's worlds over HTTP."""

from .client import SandboxError, World
from .server import SandboxServer, SandboxStartError

__all__ = ["SandboxError", "SandboxServer", "SandboxStartError", "World", "__version__"]
__version__ = "0.4.0"
