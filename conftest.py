"""Root pytest configuration: Hypothesis profiles (dev / ci) and shared fixtures."""

import os

from hypothesis import HealthCheck, settings

# ci: fewer examples, derandomized so CI is reproducible; dev: more exploration.
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
