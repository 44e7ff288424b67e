# SPDX-License-Identifier: MIT
# Shared set-up of the Python module's tests: the command to compare with, and Hypothesis's
# profile (no example database written into the tree, no per-example deadline).
import json
import os
import subprocess

import pytest
from hypothesis import settings

settings.register_profile("pegsol", database=None, deadline=None, print_blob=True)
settings.load_profile("pegsol")


def _binary():
    path = os.environ.get("PEGSOL_BIN", "")
    return path if path and os.path.exists(path) else None


@pytest.fixture
def command():
    """Runs `pegsol ARGS --json` and returns (exit status, the parsed object)."""
    binary = _binary()
    if binary is None:
        pytest.skip("PEGSOL_BIN names no pegsol binary")

    def run(*args):
        p = subprocess.run([binary, *args, "--json"], capture_output=True, text=True, timeout=120)
        return p.returncode, json.loads(p.stdout)

    return run

