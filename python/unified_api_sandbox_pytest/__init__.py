"""pytest fixtures and a small client for the unified API sandbox's worlds over HTTP."""

from .client import SandboxError, SandboxServer, SandboxStartError, World

__all__ = ["SandboxError", "SandboxServer", "SandboxStartError", "World", "__version__"]
__version__ = "0.1.0"
