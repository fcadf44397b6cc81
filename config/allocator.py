"""The C allocator of a server process, told to keep freed memory for the next request (glibc).

A Monte Carlo estimate builds dozens of arrays of 10^5–10^6 floats (0.8–8 MB each). With glibc's
defaults, the heap's free top is handed back to the system as soon as it passes a few MB, so the
next array touches fresh pages again: at 10^5 samples, about 6,000 page faults a request, half
of its CPU time. Here arrays up to 32 MB come from the heap, and up to 64 MB of free heap is kept
for the next request before any of it is returned. Elsewhere than glibc this does nothing.
"""

import ctypes
import ctypes.util

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 32 * 2**20  # glibc's largest: arrays of 10^6 floats (8 MB) use the heap
TRIM_THRESHOLD_BYTES = 64 * 2**20  # free heap kept: a 10^5-sample request's arrays, with room


def keep_freed_memory() -> bool:
    """Set both thresholds (either alone turns off glibc's own adjustment of the other); True
    when the allocator took them."""
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):
        return False  # no C library found, or one without mallopt (musl, macOS)
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES)
    )
