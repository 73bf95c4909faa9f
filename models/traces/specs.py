"""The trace statistics' registration (:mod:`models.spec`)."""

from __future__ import annotations

from models.spec import ModelSpec, register

register(ModelSpec(
    name="trace_stats",
    title="trace statistics: requests, footprint, read/write mix, reuse (seed 003 Table II's columns)",
    module="models.traces.stats",
    evaluate="models.traces.stats:trace_stats",
    result="models.traces.stats:TraceStats",
    provenance=("trace.",),
    seeds=("003",),
    cli=("trace-stats",),
    page="trace-explorer",
))
