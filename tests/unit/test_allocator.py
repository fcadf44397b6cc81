"""The server's allocator keeps a Monte Carlo request's freed arrays for the next one (glibc)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# One estimate with ranges at 10^5 samples, then the page faults of a second, identical one.
SECOND_REQUEST_FAULTS = """
import resource, sys
if sys.argv[1] == "served":
    import config.wsgi  # what gunicorn loads
from apps.estimates.uncertainty_draws import Range
from apps.estimates.uncertainty import sample
from tests.unit.estimates.test_uncertainty_closed_forms import INPUTS
ranges = {"training.mfu": Range(0.3, 0.5), "inference.requests_per_month": Range(2e5, 4e6)}
sample(INPUTS, ranges, 100_000, fan=True)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
sample(INPUTS, ranges, 100_000, fan=True)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def second_request_faults(mode: str) -> int:
    completed = subprocess.run(
        [sys.executable, "-c", SECOND_REQUEST_FAULTS, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return int(completed.stdout.split()[-1])


def test_under_the_wsgi_entry_point_a_second_request_touches_no_fresh_pages():
    default, served = second_request_faults("default"), second_request_faults("served")
    # Each fault is a fresh 4 KiB page: by default the arrays' pages go back to the system
    # and come again; kept, the second request reuses the first one's.
    assert default > 1_000
    assert served < default / 20
