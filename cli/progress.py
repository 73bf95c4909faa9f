"""Progress of long reads on stderr: share read, requests/s, time left (``--progress``, or when stderr is a terminal)."""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["add_progress_option", "read_progress"]


def add_progress_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show the read's progress on stderr (share read, requests/s, time left); default: when "
                        "stderr is a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")


def read_progress(args: argparse.Namespace, source):
    """A :class:`~models.traces.progress.ReadProgress` writing to stderr, or None when progress is off."""
    from models.traces.progress import ReadProgress

    show = getattr(args, "progress", None)
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        return None
    total = os.path.getsize(source) if isinstance(source, (str, os.PathLike)) and os.path.isfile(source) else None
    end = "\r" if sys.stderr.isatty() else "\n"

    def show_line(p) -> None:
        print(f"{os.fspath(source) if isinstance(source, (str, os.PathLike)) else 'trace'}: {p.text()}",
              file=sys.stderr, end=end if p.share < 1.0 else "\n", flush=True)

    return ReadProgress(total, show_line)
