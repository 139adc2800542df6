"""Exits 0 when this python can build the plugin's wheel offline (`pip wheel --no-build-isolation`):
pip, setuptools 61 or later, and the `wheel` package below setuptools 70.1 (whose bdist_wheel is its
own). Read by test/python/ and by .ci/run."""

import importlib.util

import setuptools

version = tuple(int(part) for part in setuptools.__version__.split(".")[:2])
assert version >= (61, 0), f"setuptools {setuptools.__version__} reads no [project] table"
if version < (70, 1):
    import wheel.bdist_wheel  # noqa: F401
assert importlib.util.find_spec("pip") is not None, "no pip"
