"""The planner: does PCM pay off, and for which workloads? Two planners on top of every model.

- :mod:`models.planner.plan` -- the plan for *my* workloads: the user's traces, Filebench and fio
  files against 1-3 devices, one verdict per workload x role x device (:func:`plan_workloads`,
  i.e. :func:`models.planner.plan.plan`);
- :mod:`models.planner.rank` -- the library ranking (target-workload finder, seed 000 §4.6): the
  bundled workloads ranked by PCM benefit in each role (:func:`rank_workloads`).

Modules, one idea each: ``workloads`` (:class:`PlanWorkload`, kind of a file or bundled name),
``fio`` (fio jobs), ``roles`` (a plan's roles, baselines, metrics), ``role_file_cache``,
``role_storage``, ``role_memory``, ``role_write_cache`` (one evaluator per role with its band
model), ``verdicts`` (rows in words), ``uncertainty`` (bands), ``provenance`` (registry keys each
role depends on), ``plan`` and ``rank``. The HTML report and the charts are in
:mod:`reporting.planner_report`.
"""

from __future__ import annotations

from models.planner.plan import ROLES_PLAN, WORKLOAD_KINDS, PlanResult, PlanWorkload
from models.planner.plan import plan as plan_workloads
from models.planner.provenance import ROLE_PROVENANCE, provenance_keys
from models.planner.rank import DEFAULT_TRACES, PCM_STORAGE, ROLES, WRITE_CACHE_MB, rank_workloads
from models.planner.uncertainty import role_summary
from models.planner.verdicts import describe_filebench
from models.planner.workloads import workload_from_path, workload_from_upload

__all__ = ["ROLES", "DEFAULT_TRACES", "ROLE_PROVENANCE", "provenance_keys", "rank_workloads", "describe_filebench",
           "role_summary", "WORKLOAD_KINDS", "ROLES_PLAN", "PlanWorkload", "PlanResult", "workload_from_path",
           "workload_from_upload", "plan_workloads", "PCM_STORAGE", "WRITE_CACHE_MB"]
