"""The server part of the ranges benchmark, run in a process of its own by uncertainty_bench.py.

It loads the WSGI application gunicorn loads (config.wsgi, allocator settings included) and calls
it as gunicorn does, one request at a time: POST /api/v1/estimate/ with ranges on five inputs, so
the time is the server's whole path (middleware, request checks, catalogue, estimate, sampling,
percentiles, JSON), without the network. Prints one JSON object: per sample count, the wall-clock
and CPU time of each request, and the peak memory of one (tracemalloc, which sees NumPy's arrays).
"""

import io
import json
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from config.wsgi import application  # noqa: E402
from tests.bench.common import RANGED_ESTIMATE  # noqa: E402

BODY = RANGED_ESTIMATE
REPEATS = {100_000: 15, 1_000_000: 5}


def post(body: bytes) -> tuple[str, bytes]:
    """One request through the WSGI application, as gunicorn makes it."""
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/v1/estimate/",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_ACCEPT": "application/json",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status = []
    response = application(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        content = b"".join(response)
    finally:
        response.close()
    return status[0], content


def measure(samples: int) -> dict:
    body = json.dumps({**BODY, "uncertainty": {"samples": samples, "seed": 0}}).encode()
    status, content = post(body)  # warm-up: first catalogue reads, imports, the heap's growth
    if not status.startswith("200"):
        raise RuntimeError(f"POST /api/v1/estimate/ answered {status}: {content[:500]!r}")
    answer = json.loads(content)["uncertainty"]
    wall, cpu = [], []
    for _ in range(REPEATS[samples]):
        started, cpu_started = time.perf_counter(), time.process_time()
        post(body)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    tracemalloc.start()
    post(body)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "samples": samples,
        "inputs_with_ranges": len(BODY["ranges"]),
        "response_bytes": len(content),
        "figures": len(answer["figures"]),
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "peak_memory_bytes": peak,
        "load_average_after": os.getloadavg(),
    }


def main() -> None:
    runs = [measure(samples) for samples in REPEATS]
    # ru_maxrss is in KiB on Linux: the process's largest resident size, Django included.
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"runs": runs, "max_resident_bytes": max_rss}))


if __name__ == "__main__":
    main()
