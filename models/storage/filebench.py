"""Parser of Filebench workload definitions (WML ``.f`` files).

Reads the subset of the Workload Model Language used by the standard personalities
(``fileserver``, ``varmail``, ``webserver``, ``webproxy``, ``oltp``, ``videoserver``,
``randomread``, ``randomrw``, ``singlestreamread``) into plain, immutable Python objects:

- ``set $name=value`` variables (sizes with ``k``/``m``/``g``/``t`` suffixes are powers of
  1024, as in Filebench; ``cvar(type=cvar-gamma,parameters=mean:M;gamma:G)`` file-size
  distributions; ``$name`` references);
- ``define fileset`` / ``define file`` (entries, dirwidth, mean size and gamma shape via
  ``cvar-gamma`` or ``filesizegamma``, prealloc percentage, readonly);
- ``define process`` / ``thread`` blocks with their ``instances``;
- the ``flowop`` loop of each thread (createfile, deletefile, openfile, closefile,
  readwholefile, writewholefile, appendfile, appendfilerand, fsync, statfile, read,
  write, aiowrite, ... with their iosize, fd, fileset and flags).

Anything else raises :class:`ValueError` naming the line (``line 12: unknown flowop
'frobnicate'``), so a model is never silently fed a definition it does not understand.

Semantics of the parameters follow the Filebench documentation and source
(github.com/filebench/filebench, CDDL-1.0): a ``cvar-gamma`` size has the given mean and
the gamma *shape* parameter ``gamma`` (scale = mean / gamma); ``prealloc=P`` means P % of
the files exist when the run starts (``prealloc`` alone = 100 %); ``appendfilerand``
appends a uniformly random amount of up to ``iosize`` bytes (mean ``iosize / 2``);
``readwholefile`` / ``writewholefile`` move the whole file in ``iosize`` chunks.

References
----------
.. [1] Filebench, github.com/filebench/filebench, commit 22620e6 (2020), ``workloads/*.f``
   and the WML documentation (wiki "Workload model language").
.. [2] Seed 000: "Workload characterization of Filebench on a DAX PCM file system"
   (Table 1), which ran the fileserver, webserver, webproxy and varmail personalities.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from models.provenance import param

__all__ = [
    "FileSet",
    "Flowop",
    "ThreadGroup",
    "Workload",
    "FLOWOP_KINDS",
    "READ_FLOWOPS",
    "WRITE_FLOWOPS",
    "parse_workload",
    "load_workload",
    "bundled_personalities",
    "parse_size",
]

#: Flowops that move file data from storage to the application.
READ_FLOWOPS = frozenset({"read", "readwholefile", "aioread"})
#: Flowops that move file data from the application to storage.
WRITE_FLOWOPS = frozenset({"write", "writewholefile", "appendfile", "appendfilerand", "aiowrite"})
#: Metadata flowops (no file data moved).
META_FLOWOPS = frozenset({"createfile", "deletefile", "openfile", "closefile", "statfile",
                          "makedir", "removedir", "listdir"})
#: Synchronisation flowops.
SYNC_FLOWOPS = frozenset({"fsync", "fsyncset"})
#: Flowops that only pace or synchronise threads (no file-system work).
CONTROL_FLOWOPS = frozenset({"aiowait", "hog", "delay", "semblock", "sempost", "eventlimit",
                             "bwlimit", "iopslimit", "opslimit", "finishoncount",
                             "finishonbytes", "block", "wakeup", "testrandvar"})
#: Every flowop type the parser accepts.
FLOWOP_KINDS = READ_FLOWOPS | WRITE_FLOWOPS | META_FLOWOPS | SYNC_FLOWOPS | CONTROL_FLOWOPS

_FILESET_ATTRS = {"name", "path", "size", "entries", "dirwidth", "prealloc", "readonly", "reuse",
                  "paralloc", "filesizegamma", "dirgamma", "dirdepthrv", "leafdirs", "trusttree",
                  "cached", "writeonly"}
#: Largest thread count a workload may be given (the MVA solver is O(threads^2)).
MAX_THREADS = 4096
#: Most files in the main file set after ``files_scale`` / ``nfiles`` [files] (input limit: 2**30, beyond any
#: Filebench run on one machine).
MAX_FILES = 1 << 30
#: Largest flowop I/O size (``iosize_bytes``, ``append_bytes``) [bytes] (input limit: 1 GiB).
MAX_IOSIZE_BYTES = 1 << 30
_PROCESS_ATTRS = {"name", "instances", "nice"}
_THREAD_ATTRS = {"name", "memsize", "instances", "useism"}
_FLOWOP_ATTRS = {"name", "filesetname", "filename", "fd", "srcfd", "iosize", "random", "dsync",
                 "directio", "iters", "value", "workingset", "opennext", "target", "highwater",
                 "blocking", "indexed", "rotatefd", "noreadahead"}
_IGNORED_STATEMENTS = {"echo", "usage", "psrun", "enable", "debug", "create", "eventgen", "version",
                       "system", "quit", "shutdown", "sleep", "stats", "vars", "list", "cvar"}

_SIZE_RE = re.compile(r"^([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([kKmMgGtT]?)[bB]?$")
_MULT = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> float:
    """A Filebench number: digits with an optional k/m/g/t suffix (powers of 1024).

    >>> parse_size("16k"), parse_size("1m"), parse_size("128"), parse_size("1.5")
    (16384.0, 1048576.0, 128.0, 1.5)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    ValueError: not a number: 'lots'
    """
    m = _SIZE_RE.match(text.strip())
    if not m:
        raise ValueError(f"not a number: {text!r}")
    return float(m.group(1)) * _MULT[m.group(2).lower()]


@dataclass(frozen=True)
class FileSet:
    """A ``define fileset`` (or a single ``define file``).

    Attributes
    ----------
    name : str
    entries : int
        Number of files [-].
    dirwidth : float
        Mean directory width [files per directory].
    size_mean_bytes : float
        Mean file size [bytes].
    size_gamma : float or None
        Gamma shape of the file-size distribution (None = every file the same size).
    prealloc_pct : float
        Share of the files that exist at the start of the run [%].
    readonly : bool
    single_file : bool
        True for ``define file``.
    line : int
        Line of the definition in the source.
    """

    name: str
    entries: int
    dirwidth: float
    size_mean_bytes: float
    size_gamma: float | None = None
    prealloc_pct: float = 0.0
    readonly: bool = False
    single_file: bool = False
    line: int = 0

    @property
    def total_bytes(self) -> float:
        """Bytes of the files present at the start (entries x mean size x prealloc) [bytes]."""
        return self.entries * self.size_mean_bytes * self.prealloc_pct / 100.0


@dataclass(frozen=True)
class Flowop:
    """One ``flowop`` of a thread's loop.

    Attributes
    ----------
    kind : str
        Flowop type (``readwholefile``, ``fsync``, ...).
    name : str
    line : int
        Source line [-].
    fileset : str or None
        ``filesetname`` / ``filename`` it works on, when given.
    fd : int or None
    iosize_bytes : float or None
        I/O size [bytes], when given.
    random, dsync, directio : bool
    iters : int
        Repetitions per loop pass [-].
    value : float or None
        ``value=`` (hog iterations, delay seconds, ...).
    """

    kind: str
    name: str
    line: int
    fileset: str | None = None
    fd: int | None = None
    iosize_bytes: float | None = None
    random: bool = False
    dsync: bool = False
    directio: bool = False
    iters: int = 1
    value: float | None = None

    @property
    def category(self) -> str:
        """``read``, ``write``, ``meta``, ``sync`` or ``control``."""
        if self.kind in READ_FLOWOPS:
            return "read"
        if self.kind in WRITE_FLOWOPS:
            return "write"
        if self.kind in META_FLOWOPS:
            return "meta"
        if self.kind in SYNC_FLOWOPS:
            return "sync"
        return "control"


@dataclass(frozen=True)
class ThreadGroup:
    """The threads of one ``thread`` block: ``instances`` copies running the same loop.

    ``instances`` already multiplies the thread's and its process's instance counts.
    """

    process: str
    name: str
    instances: int
    flowops: tuple[Flowop, ...]
    line: int = 0


@dataclass(frozen=True)
class Workload:
    """A parsed Filebench personality."""

    name: str
    variables: dict = field(default_factory=dict, compare=False)
    filesets: dict = field(default_factory=dict)
    threads: tuple[ThreadGroup, ...] = ()
    runtime_s: float | None = None
    source: str = ""

    @property
    def nthreads(self) -> int:
        """Total number of threads [-]."""
        return sum(t.instances for t in self.threads)

    @property
    def main_fileset(self) -> FileSet:
        """The largest file set (by preallocated bytes, then entries), the one the model sizes."""
        if not self.filesets:
            raise ValueError(f"{self.name}: the workload defines no fileset or file")
        return max(self.filesets.values(), key=lambda f: (f.entries * f.size_mean_bytes, f.entries))

    def flowops(self) -> list[tuple[ThreadGroup, Flowop]]:
        """All (thread group, flowop) pairs in loop order."""
        return [(t, f) for t in self.threads for f in t.flowops]

    def read_write_ratio(self) -> tuple[int, int]:
        """(read flowops, write flowops) per loop pass, weighted by thread instances.

        >>> w = load_workload("fileserver"); w.read_write_ratio()
        (50, 100)
        """
        r = sum(t.instances * f.iters for t, f in self.flowops() if f.category == "read")
        w = sum(t.instances * f.iters for t, f in self.flowops() if f.category == "write")
        return r, w

    def fileset_of(self, op: Flowop, fd_sets: dict | None = None) -> FileSet:
        """The file set a flowop works on (by name, else the one its fd was opened on, else the main one)."""
        if op.fileset and op.fileset in self.filesets:
            return self.filesets[op.fileset]
        if fd_sets and op.fd in fd_sets:
            return self.filesets[fd_sets[op.fd]]
        return self.main_fileset

    def with_changes(self, *, files_scale: float | None = None, nfiles: int | None = None,
                     file_size_bytes: float | None = None, dirwidth: float | None = None,
                     threads: int | None = None, iosize_bytes: float | None = None,
                     append_bytes: float | None = None) -> Workload:
        """A copy with the main file set, thread count or I/O sizes changed.

        ``files_scale`` multiplies the main file set's entries; ``threads`` sets the total
        thread count (all of it given to the largest thread group); ``iosize_bytes`` sets
        the I/O size of the read/write/whole-file flowops and ``append_bytes`` that of the
        append flowops.

        >>> load_workload("varmail").with_changes(files_scale=0.1, threads=4).main_fileset.entries
        100
        """
        fs = dict(self.filesets)
        main = self.main_fileset
        ch = {}
        if files_scale is not None:
            if not 0 < files_scale < math.inf:
                raise ValueError(f"files_scale must be a finite number > 0, got {files_scale}")
            if main.entries * files_scale > MAX_FILES:
                raise ValueError(f"files_scale={files_scale:g} gives {main.entries * files_scale:.3g} files, more than "
                                 f"{MAX_FILES:,}")
            ch["entries"] = max(1, round(main.entries * files_scale))
        if nfiles is not None:
            if not 1 <= nfiles <= MAX_FILES:
                raise ValueError(f"nfiles must be a number within 1..{MAX_FILES:,}, got {nfiles}")
            if files_scale is not None and nfiles * files_scale > MAX_FILES:
                raise ValueError(f"nfiles * files_scale = {nfiles * files_scale:.3g} files, more than {MAX_FILES:,}")
            ch["entries"] = int(nfiles) if files_scale is None else max(1, round(nfiles * files_scale))
        if file_size_bytes is not None:
            if not 0 < file_size_bytes < math.inf:
                raise ValueError(f"file_size_bytes must be a finite number > 0, got {file_size_bytes}")
            ch["size_mean_bytes"] = float(file_size_bytes)
        if dirwidth is not None:
            if not 0 < dirwidth < math.inf:
                raise ValueError(f"dirwidth must be a finite number > 0, got {dirwidth}")
            ch["dirwidth"] = float(dirwidth)
        if ch:
            fs[main.name] = replace(main, **ch)
        groups = list(self.threads)
        if threads is not None:
            if not 1 <= threads <= MAX_THREADS or threads != int(threads):
                raise ValueError(f"threads must be a whole number within 1..{MAX_THREADS}, got {threads}")
            if not groups:
                raise ValueError(f"{self.name}: the workload defines no thread")
            big = max(range(len(groups)), key=lambda i: groups[i].instances)
            groups = [replace(g, instances=int(threads) if i == big else 0) for i, g in enumerate(groups)]
            groups = [g for g in groups if g.instances > 0]
        if iosize_bytes is not None or append_bytes is not None:
            for v, nm in ((iosize_bytes, "iosize_bytes"), (append_bytes, "append_bytes")):
                if v is not None and not 1 <= v <= MAX_IOSIZE_BYTES:
                    raise ValueError(f"{nm} must be within 1..{MAX_IOSIZE_BYTES:,} bytes, got {v:g}")
            new = []
            for g in groups:
                ops = []
                for f in g.flowops:
                    if f.kind in ("appendfile", "appendfilerand"):
                        if append_bytes is not None:
                            f = replace(f, iosize_bytes=float(append_bytes))
                    elif f.category in ("read", "write") and iosize_bytes is not None:
                        f = replace(f, iosize_bytes=float(iosize_bytes))
                    ops.append(f)
                new.append(replace(g, flowops=tuple(ops)))
            groups = new
        return replace(self, filesets=fs, threads=tuple(groups))


# ---------------------------------------------------------------------------- parsing


def _split_attrs(text: str) -> list[str]:
    """Split ``a=1,b=cvar(x=1,y=2),c`` at top-level commas."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


class _Parser:
    def __init__(self, text: str, name: str, overrides: dict | None):
        self.text = text
        self.name = name
        self.vars: dict[str, object] = {}
        self.overrides = {k.lstrip("$"): v for k, v in (overrides or {}).items()}
        self.filesets: dict[str, FileSet] = {}
        self.threads: list[ThreadGroup] = []
        self.runtime: float | None = None

    def err(self, line: int, msg: str) -> ValueError:
        return ValueError(f"{self.name}: line {line}: {msg}")

    # -- values
    def value(self, raw: str, line: int):
        raw = raw.strip()
        if raw.startswith("$"):
            key = raw[1:]
            if key in self.overrides:
                return self._literal(str(self.overrides[key]), line)
            if key not in self.vars:
                raise self.err(line, f"undefined variable {raw}")
            return self.vars[key]
        return self._literal(raw, line)

    def _literal(self, raw: str, line: int):
        raw = raw.strip()
        if raw.startswith("cvar(") and raw.endswith(")"):
            return self._cvar(raw, line)
        if len(raw) >= 2 and raw[0] == raw[-1] == '"':
            return raw[1:-1]
        low = raw.lower()
        if low in ("true", "false"):
            return low == "true"
        try:
            return parse_size(raw)
        except ValueError:
            return raw

    def _cvar(self, raw: str, line: int) -> dict:
        body = raw[len("cvar("):-1]
        out: dict = {}
        for part in _split_attrs(body):
            if "=" not in part:
                raise self.err(line, f"malformed cvar item {part!r}")
            k, v = (s.strip() for s in part.split("=", 1))
            if k == "type":
                out["type"] = v
            elif k == "parameters":
                for item in v.split(";"):
                    if not item.strip():
                        continue
                    if ":" not in item:
                        raise self.err(line, f"malformed cvar parameter {item!r} (expected name:value)")
                    pk, pv = (s.strip() for s in item.split(":", 1))
                    try:
                        out[pk] = parse_size(pv)
                    except ValueError:
                        raise self.err(line, f"cvar parameter {pk}: not a number: {pv!r}") from None
            elif k in ("min", "max", "round"):
                out[k] = parse_size(v)
            else:
                raise self.err(line, f"unknown cvar field {k!r}")
        if "type" not in out:
            raise self.err(line, "cvar without type=")
        if out["type"] not in ("cvar-gamma", "cvar-normal", "cvar-lognormal", "cvar-exponential",
                               "cvar-erlang", "cvar-weibull", "cvar-triangular", "cvar-uniform"):
            raise self.err(line, f"unknown cvar type {out['type']!r}")
        if "mean" not in out:
            raise self.err(line, f"cvar {out['type']} needs a mean parameter for this model")
        return out

    def attrs(self, text: str, allowed: set[str], what: str, line: int) -> dict:
        out: dict = {}
        for part in _split_attrs(text):
            if "=" in part:
                k, v = (s.strip() for s in part.split("=", 1))
                val = self.value(v, line)
            else:
                k, val = part.strip(), True
            if k not in allowed:
                raise self.err(line, f"unknown {what} attribute {k!r} (known: {', '.join(sorted(allowed))})")
            out[k] = val
        return out

    def number(self, d: dict, key: str, line: int, default=None, *, positive=False,
               whole=False) -> float | None:
        if key not in d:
            return default
        v = d[key]
        if isinstance(v, bool):
            v = 1.0 if v else 0.0
        if isinstance(v, dict):
            v = v["mean"]
        if not isinstance(v, (int, float)):
            raise self.err(line, f"{key}: expected a number, got {v!r}")
        if not math.isfinite(v):
            raise self.err(line, f"{key}: must be finite, got {v!r}")
        if positive and not v > 0:
            raise self.err(line, f"{key}: must be > 0, got {v!r}")
        if whole and (v != int(v) or v < 1):
            raise self.err(line, f"{key}: must be a whole number >= 1, got {v!r}")
        return float(v)

    # -- statements
    def logical_lines(self):
        buf, start = "", 0
        for i, raw in enumerate(self.text.splitlines(), start=1):
            s = raw.strip()
            if not buf and (not s or s.startswith("#")):
                continue
            if buf and s.startswith("#"):
                continue
            if not buf:
                start = i
            buf = f"{buf} {s}".strip() if buf else s
            if buf.endswith(","):
                continue
            yield start, buf
            buf = ""
        if buf:
            yield start, buf.rstrip(",")

    def parse(self) -> Workload:
        stack: list[str] = []  # 'process' / 'thread'
        pending: tuple[str, dict, int] | None = None
        proc: dict | None = None
        thread: dict | None = None
        ops: list[Flowop] = []

        def open_block(line: int) -> None:
            """Enter the process/thread block defined just before this '{'."""
            nonlocal pending, proc, thread, ops
            if pending is None:
                raise self.err(line, "'{' without a preceding define process / thread")
            kind, d, pline = pending
            stack.append(kind)
            if kind == "process":
                proc = {**d, "line": pline}
            else:
                thread = {**d, "line": pline}
                ops = []
            pending = None

        for line, s in self.logical_lines():
            # braces may share the line with a header: "thread name=x {"
            opens = s.endswith("{") and s != "{"
            if opens:
                s = s[:-1].strip()
            if s == "{":
                open_block(line)
                continue
            if s == "}":
                if not stack:
                    raise self.err(line, "unbalanced '}'")
                kind = stack.pop()
                if kind == "thread":
                    assert thread is not None and proc is not None
                    n = (int(self.number(thread, "instances", thread["line"], 1.0, whole=True))
                         * int(self.number(proc, "instances", proc["line"], 1.0, whole=True)))
                    if not ops:
                        raise self.err(thread["line"], f"thread {thread.get('name', '?')!r} has no flowop")
                    if n > MAX_THREADS:  # the limit of the threads option (with_changes)
                        raise self.err(thread["line"], f"thread {thread.get('name', '?')!r}: {n:,} instances "
                                       f"(thread x process), more than {MAX_THREADS:,}")
                    self.threads.append(ThreadGroup(process=str(proc.get("name", "")), name=str(thread.get("name", "")),
                                                    instances=n, flowops=tuple(ops), line=thread["line"]))
                    thread = None
                else:
                    proc = None
                continue
            if pending is not None:
                raise self.err(line, f"expected '{{' after the {pending[0]} definition on line {pending[2]}")
            word, _, rest = s.partition(" ")
            rest = rest.strip()
            if word == "set":
                self.statement_set(rest, line)
            elif word == "define":
                what, _, body = rest.partition(" ")
                if what in ("fileset", "file"):
                    if stack:
                        raise self.err(line, f"define {what} inside a process block")
                    self.define_fileset(body, line, single=(what == "file"))
                elif what == "process":
                    if stack:
                        raise self.err(line, "define process inside another block")
                    pending = ("process", self.attrs(body, _PROCESS_ATTRS, "process", line), line)
                else:
                    raise self.err(line, f"unknown definition 'define {what}' (supported: fileset, file, process)")
            elif word == "thread":
                if stack != ["process"]:
                    raise self.err(line, "thread outside a process block")
                pending = ("thread", self.attrs(rest, _THREAD_ATTRS, "thread", line), line)
            elif word == "flowop":
                if stack != ["process", "thread"]:
                    raise self.err(line, "flowop outside a thread block")
                ops.append(self.flowop(rest, line))
            elif word == "run":
                if rest:
                    v = self.value(rest.split()[0], line)
                    if not isinstance(v, (int, float)) or isinstance(v, bool):
                        raise self.err(line, f"run: expected a duration in seconds, got {rest!r}")
                    self.runtime = float(v)
            elif word in _IGNORED_STATEMENTS:
                continue
            else:
                raise self.err(line, f"unknown statement {word!r}")
            if opens:
                open_block(line)
        if stack or pending is not None:
            raise self.err(len(self.text.splitlines()), "unterminated process/thread block (missing '}')")
        if not self.threads:
            raise self.err(len(self.text.splitlines()), "no process/thread with flowops defined")
        return Workload(name=self.name, variables=dict(self.vars), filesets=dict(self.filesets),
                        threads=tuple(self.threads), runtime_s=self.runtime, source=self.text)

    def statement_set(self, rest: str, line: int) -> None:
        if rest.startswith("mode"):
            return  # "set mode quit alldone": run control, no effect on the model
        m = re.match(r"^\$([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$", rest)
        if not m:
            raise self.err(line, f"malformed set statement 'set {rest}' (expected set $name=value)")
        key, raw = m.group(1), m.group(2)
        if key in self.overrides:
            self.vars[key] = self._literal(str(self.overrides[key]), line)
        else:
            self.vars[key] = self.value(raw, line)

    def define_fileset(self, body: str, line: int, *, single: bool) -> None:
        d = self.attrs(body, _FILESET_ATTRS, "fileset", line)
        name = d.get("name")
        if not isinstance(name, str) or not name:
            raise self.err(line, "fileset without a name")
        if "size" not in d:
            raise self.err(line, f"fileset {name!r}: size= is required")
        size = d["size"]
        gamma = None
        if isinstance(size, dict):
            if size["type"] == "cvar-gamma":
                gamma = float(size.get("gamma", param("workload.cvar_gamma_default").value))
            size = size["mean"]
        if not isinstance(size, (int, float)) or isinstance(size, bool) or not 0 <= size < math.inf:
            raise self.err(line, f"fileset {name!r}: size must be a finite non-negative number, got {size!r}")
        if "filesizegamma" in d:
            gamma = self.number(d, "filesizegamma", line, positive=True)
        entries = 1 if single else self.number(d, "entries", line, None)
        if entries is None:
            raise self.err(line, f"fileset {name!r}: entries= is required")
        if entries < 1:
            raise self.err(line, f"fileset {name!r}: entries must be >= 1, got {entries:g}")
        if entries > MAX_FILES:  # the limit nfiles / files_scale have (with_changes), also for the file's own sets
            raise self.err(line, f"fileset {name!r}: entries = {entries:.6g} files, more than {MAX_FILES:,}")
        pre = d.get("prealloc", False)
        if pre is True:
            pre_pct = 100.0
        elif pre is False:
            pre_pct = 0.0
        else:
            pre_pct = self.number(d, "prealloc", line)
            if not 0 <= pre_pct <= 100:
                raise self.err(line, f"fileset {name!r}: prealloc must be 0-100 %, got {pre_pct:g}")
        self.filesets[name] = FileSet(
            name=name, entries=int(entries), dirwidth=self.number(d, "dirwidth", line, 1.0, positive=True),
            size_mean_bytes=float(size), size_gamma=gamma, prealloc_pct=pre_pct,
            readonly=bool(d.get("readonly", False)), single_file=single, line=line)

    def flowop(self, rest: str, line: int) -> Flowop:
        kind, _, body = rest.partition(" ")
        kind = kind.strip()
        if kind not in FLOWOP_KINDS:
            raise self.err(line, f"unknown flowop {kind!r} (supported: {', '.join(sorted(FLOWOP_KINDS))})")
        d = self.attrs(body, _FLOWOP_ATTRS, f"flowop {kind}", line)
        fs = d.get("filesetname", d.get("filename"))
        if fs is not None and fs not in self.filesets:
            raise self.err(line, f"flowop {kind}: unknown fileset {fs!r}")
        fd = self.number(d, "fd", line)
        iters = self.number(d, "iters", line, 1.0, whole=True)
        iosize = self.number(d, "iosize", line, positive=True)
        if iosize is not None and iosize > MAX_IOSIZE_BYTES:  # the limit of the iosize option (with_changes)
            raise self.err(line, f"flowop {kind}: iosize = {iosize:.6g} bytes, more than {MAX_IOSIZE_BYTES:,}")
        return Flowop(kind=kind, name=str(d.get("name", kind)), line=line, fileset=fs,
                      fd=None if fd is None else int(fd),
                      iosize_bytes=iosize,
                      random=bool(d.get("random", False)), dsync=bool(d.get("dsync", False)),
                      directio=bool(d.get("directio", False)), iters=int(iters),
                      value=self.number(d, "value", line))


def parse_workload(text: str, *, name: str = "workload", overrides: dict | None = None) -> Workload:
    """Parse Filebench WML text.

    Parameters
    ----------
    text : str
        Content of a ``.f`` file.
    name : str, keyword-only
        Name used in error messages and as the workload name.
    overrides : dict, keyword-only
        Variable values replacing the file's ``set $var=...`` (e.g. ``{"nfiles": 50000}``).

    Returns
    -------
    Workload

    Raises
    ------
    ValueError
        On an unknown or malformed construct, naming the line.

    Examples
    --------
    >>> w = parse_workload('''
    ... set $n=100
    ... define fileset name=fs,path=/tmp,size=16k,entries=$n,prealloc
    ... define process name=p,instances=2
    ... {
    ...   thread name=t,memsize=1m,instances=3
    ...   {
    ...     flowop openfile name=o,filesetname=fs,fd=1
    ...     flowop readwholefile name=r,fd=1,iosize=4k
    ...     flowop closefile name=c,fd=1
    ...   }
    ... }
    ... run 10''', name="tiny")
    >>> w.nthreads, w.main_fileset.entries, w.threads[0].flowops[1].iosize_bytes, w.runtime_s
    (6, 100, 4096.0, 10.0)
    >>> parse_workload("flowop frobnicate name=x", name="bad")
    Traceback (most recent call last):
    ...
    ValueError: bad: line 1: flowop outside a thread block
    """
    return _Parser(text, name, overrides).parse()


def bundled_personalities() -> list[str]:
    """Names of the Filebench personalities bundled in ``data/filebench/``.

    >>> {"fileserver", "varmail", "webserver", "webproxy"} <= set(bundled_personalities())
    True
    """
    from models.data import list_data

    return [Path(p).stem for p in list_data("filebench/*.f")]


def load_workload(name_or_path: str | Path, *, overrides: dict | None = None) -> Workload:
    """Load a bundled personality by name (``"varmail"``) or a ``.f`` file by path.

    >>> load_workload("varmail").nthreads
    16
    """
    p = Path(name_or_path)
    if p.suffix == ".f" and p.is_file():
        return parse_workload(p.read_text(encoding="utf-8", errors="replace"), name=p.stem, overrides=overrides)
    from models.data import data_path

    try:
        path = data_path(f"filebench/{name_or_path}.f")
    except KeyError:
        raise KeyError(f"unknown Filebench personality {str(name_or_path)!r}; bundled: "
                       f"{', '.join(bundled_personalities())} (or give a path to a .f file)") from None
    return parse_workload(path.read_text(encoding="utf-8"), name=str(name_or_path), overrides=overrides)
