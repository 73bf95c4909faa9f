"""A Filebench ``.f`` file is held to the limits of the options that change it (issue 42 item 14)."""

from __future__ import annotations

import pytest

from models.storage.filebench import MAX_FILES, MAX_IOSIZE_BYTES, MAX_THREADS, parse_workload


def _f(nfiles="1000", iosize="4k", instances="1", proc="1") -> str:
    return (f"set $nfiles={nfiles}\n"
            "define fileset name=fs,path=/tmp,size=16k,entries=$nfiles,prealloc\n"
            f"define process name=p,instances={proc}\n{{\n  thread name=t,instances={instances}\n  {{\n"
            f"    flowop read name=r,filesetname=fs,iosize={iosize}\n  }}\n}}\n")


def test_a_file_within_the_limits_reads():
    w = parse_workload(_f(nfiles=str(MAX_FILES), iosize=str(MAX_IOSIZE_BYTES), instances="64", proc="64"))
    assert w.main_fileset.entries == MAX_FILES and w.nthreads == MAX_THREADS


@pytest.mark.parametrize("kw, message", [
    ({"nfiles": "1000000000000"}, r"fileset 'fs': entries = 1e\+12 files, more than 1,073,741,824"),
    ({"iosize": "2g"}, "iosize = .* bytes, more than 1,073,741,824"),
    ({"instances": "65", "proc": "64"}, "4,160 instances .* more than 4,096"),
])
def test_set_variables_cannot_pass_the_limits(kw, message):
    """``set $nfiles=1000000000000`` bypassed the file limit the nfiles option has."""
    with pytest.raises(ValueError, match=message):
        parse_workload(_f(**kw))
