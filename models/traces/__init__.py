"""Trace layer: columnar block and memory traces, readers, generators and statistics."""

from models.traces.core import BlockTrace, MemTrace

__all__ = ["BlockTrace", "MemTrace"]
