"""Signatures numba compiles in a fresh process with an empty cache.

A kernel called only from inside other compiled kernels gets no signature in a process whose callers were loaded
from numba's on-disk cache (it is never typed there), so counting its ``signatures`` in the test process says
nothing once another test has filled the cache. :func:`fresh_signatures` runs the calls in a child process with its
own empty ``NUMBA_CACHE_DIR``: every caller is compiled, so every callee is typed once per distinct argument type.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests import ROOT


def fresh_signatures(setup: str, kernels: dict[str, str], cache_dir) -> dict[str, list[str]]:
    """Run ``setup`` (Python source) in a fresh interpreter whose numba cache is the empty ``cache_dir``, then return
    ``{name: [[argument type, ...] per signature]}`` for each ``kernels[name]`` (an expression naming a numba
    dispatcher), each argument type as numba prints it."""
    report = "\n".join(f"_out[{name!r}] = [[str(t) for t in s] for s in ({expr}).signatures]"
                       for name, expr in kernels.items())
    code = "\n".join([textwrap.dedent(setup), "import json", "_out = {}", report, "print(json.dumps(_out))"])
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    if done.returncode:
        raise RuntimeError(f"the child process failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
