"""A block trace replayed on one device: each request's service time and the FIFO response times.

The storage role of a plan (:mod:`models.planner.role_storage`) answers from a block trace by
replaying it, arrivals as recorded, on the device and on the baseline, like for like:

- service time of each request [ns]: on an HDD the HDD model's stream service time (seek from
  the previous request's end, half a rotation, media transfer; :func:`models.storage.hdd.stream_service_ms`
  on the catalogue drive's generic profile); on any other device the one transfer-time equation
  (:func:`models.devices.transfer_time_ns`: the read or write latency of the first access unit,
  the rest streamed at the read or write bandwidth);
- response time = wait + service: the wait of a first-come-first-served queue whose server works
  ``planner.replay_queue_depth`` requests at once (each request holds it for service / depth: a
  fluid approximation of that many parallel units, exact at 1; an HDD has depth 1), from Lindley's
  recursion in closed form, vectorised (``c_n = S_n + max_{k<=n} (a_k - S_{k-1})``, ``S`` the
  cumulative service); the request's own service time is never shortened.

References
----------
.. [1] D. V. Lindley, "The theory of queues with a single server", Proc. Cambridge Phil. Soc. 48 (1952).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from models.devices import DeviceProfile, transfer_time_ns
from models.provenance import param

__all__ = ["fifo_response_ns", "fifo_response_chunk_ns", "service_times_ns", "replay_mean_response_ns", "queue_depth",
           "is_modelled_hdd", "replay_mean_response_many_ns", "ReplayStream"]


def queue_depth() -> float:
    """Requests a non-HDD device serves at once in the replay [-] (``planner.replay_queue_depth``, assumed)."""
    return float(param("planner.replay_queue_depth").value)


def fifo_response_ns(arrival_ns, service_ns) -> np.ndarray:
    """Response time of each request of a FIFO single-server queue [ns], vectorised.

    Parameters
    ----------
    arrival_ns : array_like
        Arrival times [ns], non-decreasing.
    service_ns : array_like
        Service times [ns], >= 0.

    Returns
    -------
    numpy.ndarray
        ``completion - arrival`` [ns] per request.

    Examples
    --------
    >>> fifo_response_ns([0, 1, 10], [5, 5, 1]).tolist()   # the second waits 4 ns, the third none
    [5.0, 9.0, 1.0]
    """
    a = np.asarray(arrival_ns, dtype=float)
    s = np.asarray(service_ns, dtype=float)
    if a.shape != s.shape or a.ndim != 1:
        raise ValueError("arrival_ns and service_ns must be 1-D arrays of the same length")
    return fifo_response_chunk_ns(a, s, 0.0, -np.inf)[0]


def fifo_response_chunk_ns(arrival_ns: np.ndarray, service_ns: np.ndarray, busy_ns: float,
                           peak_ns: float) -> tuple[np.ndarray, float, float]:
    """:func:`fifo_response_ns` of the next requests of a queue, resumed: Lindley's recursion in closed form,
    ``c_n = S_n + max_{k<=n} (a_k - S_{k-1})``, with ``busy_ns`` the service of the requests before them
    (``S``; 0 for the first) and ``peak_ns`` the running maximum (-inf for the first) carried in. Returns the
    responses [ns] and the new ``(busy_ns, peak_ns)``; the same values, bit for bit, as one call over all the
    requests (the cumulative sum and maximum run on from the carried values).

    >>> r1, b, p = fifo_response_chunk_ns(np.array([0.0, 1.0]), np.array([5.0, 5.0]), 0.0, -np.inf)
    >>> fifo_response_chunk_ns(np.array([10.0]), np.array([1.0]), b, p)[0].tolist()
    [1.0]
    """
    if not len(arrival_ns):
        return np.zeros(0), busy_ns, peak_ns
    cum = np.cumsum(np.concatenate(([busy_ns], service_ns)))[1:]
    before = cum - service_ns  # service of the earlier requests
    peak = np.maximum.accumulate(np.concatenate(([peak_ns], arrival_ns - before)))[1:]
    return cum + peak - arrival_ns, float(cum[-1]), float(peak[-1])


def is_modelled_hdd(dev: DeviceProfile) -> bool:
    """Whether ``dev`` is a catalogue HDD, replayed with the HDD model (a custom HDD, whose drive geometry is
    unknown, takes the transfer-time equation with its typed latency and bandwidth, at queue depth 1). Only the
    columns a performance model reads (:data:`~models.devices.MODEL_COLUMNS`) are compared: a catalogue HDD the
    user priced is still that drive."""
    from models.devices import MODEL_COLUMNS, load_catalogue

    cat = load_catalogue().get(dev.name)
    same = cat is not None and cat.kind == dev.kind and all(getattr(cat, c) == getattr(dev, c) for c in MODEL_COLUMNS)
    return dev.kind == "hdd" and same and dev.rpm is not None \
        and dev.avg_seek_ns is not None and dev.read_bandwidth_MBps is not None


def service_times_ns(trace, dev: DeviceProfile) -> np.ndarray:
    """Service time of each request of block ``trace`` on ``dev`` [ns] (see the module docstring).

    >>> from models.devices import get_device
    >>> from models.traces import BlockTrace
    >>> t = BlockTrace([0, 10], [False, True], [0, 4096], [4096, 4096], [0, 0])
    >>> d = get_device("optane-dcpmm")
    >>> bool(np.allclose(service_times_ns(t, d), [d.transfer_ns(4096, write=False), d.transfer_ns(4096, write=True)]))
    True
    """
    return ReplayStream(dev, depth=1.0)._service(trace.is_write, trace.offset_bytes, trace.size_bytes)


def replay_mean_response_ns(trace, dev: DeviceProfile, *, depth: float | None = None) -> tuple[float, float]:
    """Mean response time [ns] and mean service time [ns] of block ``trace`` replayed on ``dev``.

    ``depth`` overrides ``planner.replay_queue_depth`` (an HDD: always 1, one actuator).

    >>> from models.devices import get_device
    >>> from models.traces import load
    >>> t = load("mqsim:tpcc-small", max_requests=500)
    >>> r_pcm, _ = replay_mean_response_ns(t, get_device("optane-dcpmm"))
    >>> r_hdd, _ = replay_mean_response_ns(t, get_device("hdd-7200"))
    >>> bool(r_hdd > 10 * r_pcm)
    True
    """
    rs = ReplayStream(dev, depth=depth)
    rs.add(trace.time_ns, trace.is_write, trace.offset_bytes, trace.size_bytes)
    return rs.means()


class ReplayStream:
    """A block trace replayed on ``dev`` (:func:`replay_mean_response_ns`) over its requests taken in chunks
    (:meth:`add`, in trace order, times on one origin): the queue's state (the service so far and Lindley's running
    maximum, :func:`fifo_response_chunk_ns`) and the HDD stream's (the previous request, whose end the next seeks
    from) are carried across chunks, so the responses are those of one pass over the whole trace, bit for bit;
    the means differ from it at most by the order of their sums. O(1) memory.

    >>> from models.devices import get_device
    >>> from models.traces import load
    >>> t, d = load("mqsim:tpcc-small", max_requests=500), get_device("hdd-7200")
    >>> rs = ReplayStream(d)
    >>> for i in range(0, 500, 128):
    ...     rs.add(t.time_ns[i:i + 128], t.is_write[i:i + 128], t.offset_bytes[i:i + 128], t.size_bytes[i:i + 128])
    >>> bool(np.allclose(rs.means(), replay_mean_response_ns(t, d), rtol=1e-12))
    True
    """

    def __init__(self, dev: DeviceProfile, *, depth: float | None = None):
        q = 1.0 if dev.kind == "hdd" else (queue_depth() if depth is None else float(depth))
        if q < 1:
            raise ValueError(f"queue depth must be >= 1 (got {q})")
        self.dev, self.q = dev, q
        self._spec = None
        if is_modelled_hdd(dev):
            from models.storage import hdd

            self._spec = hdd.generic_drive(dev.name)
        self._prev = None  # the HDD stream's previous request: (offset [B], size [B], is_write)
        self._busy, self._peak = 0.0, -np.inf  # the queue's state (fifo_response_chunk_ns)
        self.requests = 0
        self._sum_response = self._sum_service = 0.0

    def _service(self, is_write, offset_bytes, size_bytes) -> np.ndarray:
        """Service time of each request [ns]; the HDD stream seeks from the previous request's end."""
        w = np.asarray(is_write, dtype=bool)
        if self._spec is None:
            dev = self.dev
            lat = np.where(w, dev.write_latency_ns, dev.read_latency_ns)
            bw = np.where(w, dev.effective_write_bandwidth_MBps, dev.effective_read_bandwidth_MBps)
            return transfer_time_ns(lat, np.asarray(size_bytes, dtype=float), dev.access_unit_bytes, bw)
        from models.storage import hdd

        off = np.asarray(offset_bytes, dtype=np.int64)
        size = np.asarray(size_bytes, dtype=np.int64)
        if not len(off):
            return np.zeros(0)
        prev = self._prev
        self._prev = (int(off[-1]), int(size[-1]), bool(w[-1]))
        if prev is not None:  # the stream goes on from the previous request (computed again, then dropped)
            off, size, w = (np.concatenate(([p], x)) for p, x in zip(prev, (off, size, w)))
        spec = self._spec
        lbn = (off // hdd.SECTOR_BYTES) % spec.block_count
        nblk = np.maximum(1, -(-size // hdd.SECTOR_BYTES))
        s = hdd.stream_service_ms(spec, lbn, nblk, w) * 1e6
        return s[1:] if prev is not None else s

    def add(self, time_ns, is_write, offset_bytes, size_bytes) -> None:
        """Replay the next requests."""
        s = self._service(is_write, offset_bytes, size_bytes)
        if not len(s):
            return
        sq = s / self.q
        wait_and_service, self._busy, self._peak = fifo_response_chunk_ns(np.asarray(time_ns, dtype=float), sq,
                                                                          self._busy, self._peak)
        r = wait_and_service - sq + s  # the request's own service is never shortened
        self.requests += len(r)
        self._sum_response += float(r.sum())
        self._sum_service += float(s.sum())

    def means(self) -> tuple[float, float]:
        """Mean response time [ns] and mean service time [ns] of the requests added (NaN: none)."""
        if not self.requests:
            return float("nan"), float("nan")
        return self._sum_response / self.requests, self._sum_service / self.requests


@njit(cache=True)
def _fifo_mean_many(arrival, is_write, extra, lat_r, lat_w, inv_bw_r, inv_bw_w, q):  # pragma: no cover - numba
    """Mean response of K FIFO replays in one pass over the requests (service of request i under variant k:
    ``lat + extra_i * inv_bw``, the transfer-time equation; the Lindley recursion of :func:`fifo_response_ns`)."""
    k_n = lat_r.shape[0]
    n = arrival.shape[0]
    done = np.full(k_n, -np.inf)
    total = np.zeros(k_n)
    for i in range(n):
        a = arrival[i]
        for k in range(k_n):
            s = (lat_w[k] + extra[i] * inv_bw_w[k]) if is_write[i] else (lat_r[k] + extra[i] * inv_bw_r[k])
            start = a if a > done[k] else done[k]
            done[k] = start + s / q[k]
            total[k] += done[k] - a - s / q[k] + s
    return total / max(n, 1)


def replay_mean_response_many_ns(trace, devices) -> np.ndarray:
    """Mean response time [ns] of block ``trace`` replayed on each of ``devices`` (none a catalogue HDD, which
    takes the HDD model), one pass over the trace for all of them: :func:`replay_mean_response_ns` for many
    devices that share the access unit (what the spec targets evaluate: variants of one device).

    >>> from models.devices import get_device
    >>> from models.traces import load
    >>> t = load("mqsim:tpcc-small", max_requests=500)
    >>> d = get_device("optane-dcpmm")
    >>> v = [d, d.with_updates(write_latency_ns=5e3)]
    >>> got = replay_mean_response_many_ns(t, v)
    >>> bool(np.allclose(got, [replay_mean_response_ns(t, x)[0] for x in v], rtol=1e-9))
    True
    """
    devs = list(devices)
    if not devs:
        return np.zeros(0)
    units = {d.access_unit_bytes for d in devs}
    if len(units) != 1 or any(is_modelled_hdd(d) for d in devs):
        return np.array([replay_mean_response_ns(trace, d)[0] for d in devs], dtype=float)
    size = np.asarray(trace.size_bytes, dtype=float)
    extra = np.maximum(0.0, size - units.pop()) * 1e3  # bytes beyond the first unit [B] x 1e9 / 1e6
    q = np.array([1.0 if d.kind == "hdd" else queue_depth() for d in devs])
    if np.any(q < 1):
        raise ValueError(f"queue depth must be >= 1 (got {q.min()})")
    lat_r = np.array([d.read_latency_ns for d in devs], dtype=float)
    lat_w = np.array([d.write_latency_ns for d in devs], dtype=float)
    inv_r = np.array([1.0 / d.effective_read_bandwidth_MBps for d in devs])
    inv_w = np.array([1.0 / d.effective_write_bandwidth_MBps for d in devs])
    if not len(size):
        return np.full(len(devs), np.nan)
    return _fifo_mean_many(np.asarray(trace.time_ns, dtype=float), np.asarray(trace.is_write, dtype=np.bool_), extra,
                           lat_r, lat_w, inv_r, inv_w, q)
