"""Progress of long reads on stderr: share read, requests/s, time left (``--progress``, or when stderr is a terminal)."""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["add_progress_option", "read_progress", "text_progress"]


def add_progress_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show the read's progress on stderr (share read, requests/s, time left); default: when "
                        "stderr is a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")


def _shown(args: argparse.Namespace) -> bool:
    show = getattr(args, "progress", None)
    return sys.stderr.isatty() if show is None else bool(show)


def text_progress(args: argparse.Namespace):
    """A callable writing each line of progress text it is given to stderr (a terminal: over the last one), or
    None when progress is off (``plan``'s ``read_progress``: a streamed trace's passes)."""
    if not _shown(args):
        return None
    tty = sys.stderr.isatty()

    def show_line(text: str) -> None:
        print(text, file=sys.stderr, end="\r" if tty and " 100 % " not in f" {text} " else "\n", flush=True)

    return show_line


def read_progress(args: argparse.Namespace, source):
    """A :class:`~models.traces.progress.ReadProgress` writing to stderr, or None when progress is off."""
    from models.traces.progress import ReadProgress

    if not _shown(args):
        return None
    total = os.path.getsize(source) if isinstance(source, (str, os.PathLike)) and os.path.isfile(source) else None
    end = "\r" if sys.stderr.isatty() else "\n"

    def show_line(p) -> None:
        print(f"{os.fspath(source) if isinstance(source, (str, os.PathLike)) else 'trace'}: {p.text()}",
              file=sys.stderr, end=end if p.share < 1.0 else "\n", flush=True)

    return ReadProgress(total, show_line)
