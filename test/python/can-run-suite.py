"""Exits 0 when this python can run the pytest plugin's example suite from a fresh virtual environment
(pytest, requests, and venv's pip: ensurepip). Read by test/python/ and by .ci/run."""

import ensurepip

import pytest  # noqa: F401
import requests  # noqa: F401

ensurepip.version()  # Debian's python has ensurepip without its wheels unless python3-venv is installed
