"""Hard-disk service-time model calibrated on DiskSim's validated drives.

A drive (:class:`DriveSpec`) is read from the DiskSim 4.0 files of its validation set
(``data/disksim/``): measured seek curve, zoned layout and mechanics, controller and cache
parameters. Service time of one request of a closed-loop stream
(:func:`predict_service_ms`)::

    t = controller overhead (by request type, hit/miss and the previous request's type)
      + seek(cylinder distance)                 [+ write settle when the heads move, head switch]
      + rotational latency                      ((target angle - t rpm / 60000) mod 1 rotations)
      + transfer                                (media: blocks / (blocks per track) x rotation;
                                                 bus: blocks x per-sector bus time)
      + completion overhead

with the drive's segmented read cache and read-ahead, write-back (``Fast write level >=
1``) and SCSI bus phases. The target angle comes from the LBN -> (cylinder, surface,
sector) layout with the zones' skews (:func:`lbn_to_chs`, :func:`platter_position`).
:func:`validate_drive` replays the drive's measured trace and reports DiskSim's demerit
(RMS horizontal distance between the predicted and measured service-time CDFs).
:func:`stream_throughput_MBps` is the vectorised, cacheless variant (half-rotation
latency) used for the HDD stream behind a write cache, :func:`buffered_stream` the same stream
through the drive's own write-back buffer (:mod:`.write_buffer`), and :func:`generic_drive` a
profile calibrated on a catalogue HDD.

Modules: :mod:`.disksim` (parameter files), :mod:`.spec` (drive description, loading),
:mod:`.seek` (seek curve and fit), :mod:`.layout` (LBN mapping), :mod:`.service`
(service-time simulator), :mod:`.validation` (demerit, its split by request type and cache
outcome, measured traces), :mod:`.stream` (stream throughput), :mod:`.write_buffer` (the drive's write-back buffer in
that stream), :mod:`.coverage` (every DiskSim
parameter: honoured or ignored, and why). Validation results per drive and the remaining gaps:
``docs/models/hdd.md``.

References
----------
.. [1] J. S. Bucy, J. Schindler, S. W. Schlosser, G. R. Ganger, "The DiskSim Simulation
   Environment Version 4.0 Reference Manual", CMU-PDL-08-101, 2008 (drive files and the
   validation traces, ``valid/``; expected RMS demerits from ``valid/runvalid``).
.. [2] C. Ruemmler, J. Wilkes, "An Introduction to Disk Drive Modeling", IEEE Computer
   27(3), 1994 (seek curve a + b sqrt(d) for short seeks, c + e d for long ones).
.. [3] Z. Liu, B. Wang, P. Carpenter, D. Li, J. S. Vetter, W. Yu, "PCM-Based Durable Write
   Cache for Fast Disk I/O", MASCOTS 2012 (seed 003), sec. V: a 7200 rpm disk gives
   ~100 MB/s sequential and ~0.5 MB/s for small random requests.
"""

from models.storage.hdd.coverage import (
    PARAMETERS,
    ParamCoverage,
    coverage_table,
    drive_coverage,
    file_parameters,
)
from models.storage.hdd.disksim import parse_disksim, read_seek_file
from models.storage.hdd.layout import (
    ZoneTables,
    lbn_to_chs,
    platter_position,
    track_end_lbn,
    zone_tables,
)
from models.storage.hdd.seek import SeekFit, fit_seek_curve, seek_time_ms
from models.storage.hdd.service import (
    ReadSegment,
    controller_overhead_ms,
    predict_service_detail,
    predict_service_ms,
)
from models.storage.hdd.spec import (
    GENERIC_PROFILE,
    SECTOR_BYTES,
    DriveSpec,
    Zone,
    drive_from_files,
    drive_keys,
    drive_names,
    generic_drive,
    load_drive,
    resolve_drive,
)
from models.storage.hdd.stream import (
    stream_service_ms,
    stream_terms,
    stream_throughput_MBps,
    throughput_curve,
    throughput_MBps,
)
from models.storage.hdd.validation import (
    DISKSIM_DEMERIT_MS,
    DriveValidation,
    ValidationTrace,
    cdf_demerit_ms,
    demerit_split,
    read_validation_trace,
    split_table,
    validate_drive,
    validation_keys,
    validation_table,
)
from models.storage.hdd.write_buffer import (
    DRIVE_CACHE_CHOICES,
    BufferedStream,
    DriveBuffer,
    buffered_service_ms,
    buffered_stream,
    buffered_throughput_MBps,
    drive_buffer,
)

__all__ = [
    "SECTOR_BYTES",
    "DISKSIM_DEMERIT_MS",
    "Zone",
    "DriveSpec",
    "SeekFit",
    "ZoneTables",
    "ReadSegment",
    "ValidationTrace",
    "DriveValidation",
    "parse_disksim",
    "read_seek_file",
    "drive_names",
    "resolve_drive",
    "load_drive",
    "drive_from_files",
    "generic_drive",
    "GENERIC_PROFILE",
    "drive_keys",
    "seek_time_ms",
    "fit_seek_curve",
    "zone_tables",
    "lbn_to_chs",
    "track_end_lbn",
    "platter_position",
    "controller_overhead_ms",
    "predict_service_ms",
    "predict_service_detail",
    "demerit_split",
    "split_table",
    "PARAMETERS",
    "ParamCoverage",
    "coverage_table",
    "drive_coverage",
    "file_parameters",
    "cdf_demerit_ms",
    "read_validation_trace",
    "validate_drive",
    "validation_table",
    "validation_keys",
    "stream_service_ms",
    "stream_throughput_MBps",
    "throughput_MBps",
    "throughput_curve",
    "stream_terms",
    "DRIVE_CACHE_CHOICES",
    "DriveBuffer",
    "BufferedStream",
    "drive_buffer",
    "buffered_stream",
    "buffered_service_ms",
    "buffered_throughput_MBps",
]
