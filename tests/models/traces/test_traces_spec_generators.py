"""``bench/fuzz.py``'s valid files generated from each format's published layout read back value by value (a
CI-bounded slice of ``make fuzz``'s oracle), and every way of reading a case agrees (bytes, a path -- memory-mapped
for the binary formats --, streamed, the Arrow fast path off)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def fuzz():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec = importlib.util.spec_from_file_location("bench_fuzz", ROOT / "bench" / "fuzz.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(ROOT / "bench"))


@pytest.mark.parametrize("fmt", ["msr", "alibaba", "tencent", "oraclegeneral", "lcs", "vscsi", "txt"])
def test_generated_valid_files_read_exactly(fuzz, fmt):
    rng = random.Random(f"test:{fmt}")
    for _ in range(25):
        data, exp = fuzz.GENERATORS[fmt](rng)
        assert fuzz.check_valid(fmt, data, exp) is None, data[:300]


@pytest.mark.parametrize("fmt", ["msr", "alibaba", "tencent", "oraclegeneral", "lcs", "vscsi", "txt", "twitter"])
def test_mutated_cases_read_the_same_every_way(fuzz, fmt, tmp_path):
    rng = random.Random(f"test-case:{fmt}")
    for _ in range(15):
        kind, why = fuzz.case(rng, fmt, fuzz.SAMPLES[fmt], tmp_path)
        assert kind in ("ok", "clean"), why


def test_the_oracle_catches_a_misread(fuzz):
    size = [fuzz.OBJECT_BYTES] * 2
    right = {"time_ns": [0, 1], "is_write": [False, False], "offset_bytes": [0, 1 << 32], "size_bytes": size,
             "device": [0, 0]}
    assert fuzz.check_valid("txt", b"a\nb\n", right) is None
    wrong = dict(right, offset_bytes=[0, 0])  # both requests of one object: not what the file says
    assert "read wrong: offset_bytes[1]" in fuzz.check_valid("txt", b"a\nb\n", wrong)
