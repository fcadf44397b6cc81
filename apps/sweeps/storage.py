"""How a chunk's figures are stored: float64 columns in one compressed blob, and its summary.

The blob is a small JSON header (each column's name, encoding and byte length) and the columns'
bytes. A column whose values are all the same is stored once ("same"); any other is
byte-shuffled (the first byte of every float, then the second, …), which lets zlib find the
repetition in the sign and exponent bytes. Each of its eight byte planes is compressed at
level 1, which is fast and nearly as small as higher ones, or kept as it is where a sample of
it does not compress ("shuffle-planes"; blobs written before hold each shuffled column
compressed whole, "shuffle-zlib", and still read).

The header names the columns, so a chunk holds the figures there were when it was computed: a
chunk from before embodied emissions and water were added has none of their columns, and its
readers (apps.sweeps.selectors) take them as not computed.
"""

import json
import math
import operator
import struct
import zlib

import numpy as np

from apps.sweeps.metrics import RANKINGS, TOP

MAGIC = b"SWP1"
_HEADER_LENGTH = struct.Struct("<I")
_FLOAT = np.dtype("<f8")
# A byte plane is kept as it is when its first _SAMPLE_BYTES compress to more than this share.
_SAMPLE_BYTES = 4096
_KEPT_AS_IS_ABOVE = 0.9


def _same(values: np.ndarray) -> bool:
    """True when every value has the same bits (so NaN and −0.0 survive storing it once)."""
    bits = values.view(np.int64)
    return bool((bits == bits[0]).all())


def _plane(plane: memoryview) -> tuple[bytes, str]:
    """One byte plane of a column, compressed ("zlib") or as it is ("raw").

    As it is where a sample does not compress by a tenth: the low bytes of a figure
    that changes from point to point look random, and compressing them took most of a chunk's
    encoding time for a few percent.
    """
    sample = plane[:_SAMPLE_BYTES]
    if len(zlib.compress(sample, 1)) > _KEPT_AS_IS_ABOVE * len(sample):
        return bytes(plane), "raw"
    return zlib.compress(plane, 1), "zlib"


def columns_encode(columns: dict[str, np.ndarray]) -> bytes:
    """One blob holding every column (all of the same length, float64)."""
    count = len(next(iter(columns.values())))
    header, payloads = [], []
    for name, values in columns.items():
        values = np.ascontiguousarray(values, dtype=_FLOAT)
        if count and _same(values):
            payload = values[:1].tobytes()
            header.append([name, "same", len(payload)])
            payloads.append(payload)
            continue
        shuffled = memoryview(values.view(np.uint8).reshape(count, _FLOAT.itemsize).T.tobytes())
        planes = [_plane(shuffled[at : at + count]) for at in range(0, len(shuffled), count)]
        layout = [[len(data), kind] for data, kind in planes]
        header.append([name, "shuffle-planes", sum(size for size, _ in layout), layout])
        payloads.extend(data for data, _ in planes)
    head = json.dumps({"count": count, "columns": header}).encode()
    return b"".join([MAGIC, _HEADER_LENGTH.pack(len(head)), head, *payloads])


def _shuffled_bytes(payload: memoryview, encoding: str, planes: list) -> bytes:
    """A shuffled column's bytes: one zlib stream ("shuffle-zlib") or planes ("shuffle-planes",
    `planes` giving each one's size and kind)."""
    if encoding == "shuffle-zlib":
        return zlib.decompress(payload)
    shuffled, at = [], 0
    for size, kind in planes:
        data, at = payload[at : at + size], at + size
        shuffled.append(zlib.decompress(data) if kind == "zlib" else data)
    return b"".join(shuffled)


def columns_decode(blob: bytes, names: tuple[str, ...] | None = None) -> dict[str, np.ndarray]:
    """The columns of a blob (only `names`, when given), as read-only float64 arrays."""
    blob = memoryview(blob)
    if bytes(blob[:4]) != MAGIC:
        raise ValueError("Not a sweep chunk's results.")
    (length,) = _HEADER_LENGTH.unpack_from(blob, 4)
    offset = 4 + _HEADER_LENGTH.size
    head = json.loads(bytes(blob[offset : offset + length]))
    offset += length
    count, columns = head["count"], {}
    for name, encoding, size, *planes in head["columns"]:
        payload, offset = blob[offset : offset + size], offset + size
        if names is not None and name not in names:
            continue
        if encoding == "same":
            values = np.broadcast_to(np.frombuffer(payload, dtype=_FLOAT), (count,))
        else:
            shuffled = _shuffled_bytes(payload, encoding, planes[0] if planes else [])
            shuffled = np.frombuffer(shuffled, dtype=np.uint8)
            values = shuffled.reshape(_FLOAT.itemsize, count).T.copy().view(_FLOAT).ravel()
            values.flags.writeable = False
        columns[name] = values
    return columns


def _json_number(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def chunk_summary(columns: dict[str, np.ndarray], start: int) -> dict:
    """Per figure: finite count, min, max, sum and where the extremes are (point indices); and
    the TOP points of each ranking. Summaries of all chunks merge into the sweep's summary."""
    figures = {}
    for name, values in columns.items():
        finite = np.isfinite(values)
        count = int(finite.sum())
        if count == 0:
            figures[name] = {"count": 0}
            continue
        low = np.where(finite, values, np.inf).argmin()
        high = np.where(finite, values, -np.inf).argmax()
        figures[name] = {
            "count": count,
            "min": float(values[low]),
            "min_index": start + int(low),
            "max": float(values[high]),
            "max_index": start + int(high),
            "sum": _json_number(float(values[finite].sum())),
        }
    return {"figures": figures, "rankings": _rankings(columns, start)}


def _rankings(columns: dict[str, np.ndarray], start: int) -> dict:
    rankings = {}
    for ranking, (first, second) in RANKINGS.items():
        primary, secondary = columns[first], columns[second]
        finite = np.flatnonzero(np.isfinite(primary))
        if not len(finite):
            rankings[ranking] = []
            continue
        # The TOP smallest by the first figure (any ties at the edge kept), then sorted fully.
        candidates = finite
        if len(finite) > TOP:
            edge = np.partition(primary[finite], TOP - 1)[TOP - 1]
            candidates = finite[primary[finite] <= edge]
        tie_break = np.where(np.isfinite(secondary[candidates]), secondary[candidates], np.inf)
        order = np.lexsort((candidates, tie_break, primary[candidates]))[:TOP]
        rankings[ranking] = [
            [
                start + int(candidates[i]),
                float(primary[candidates[i]]),
                _json_number(float(secondary[candidates[i]])),
            ]
            for i in order
        ]
    return rankings


def summary_merge(summaries: list[dict], total_points: int) -> dict:
    """The sweep's summary from its chunks' summaries (in any order)."""
    figures: dict[str, dict] = {}
    for summary in summaries:
        for name, part in summary["figures"].items():
            merged = figures.setdefault(name, {"count": 0, "sum": 0.0})
            if not part["count"]:
                continue
            merged["count"] += part["count"]
            merged["sum"] = (
                None
                if part["sum"] is None or merged["sum"] is None
                else (merged["sum"] + part["sum"])
            )
            for side, better in (("min", operator.lt), ("max", operator.gt)):
                key = f"{side}_index"
                if (
                    side not in merged
                    or better(part[side], merged[side])
                    or (part[side] == merged[side] and part[key] < merged[key])
                ):
                    merged[side], merged[key] = part[side], part[key]
    for merged in figures.values():
        total = merged.pop("sum")
        merged["mean"] = None if not merged["count"] or total is None else total / merged["count"]
        merged["missing"] = total_points - merged["count"]
    rankings = {}
    for ranking in RANKINGS:
        rows = [row for summary in summaries for row in summary["rankings"].get(ranking, [])]
        rows.sort(key=lambda row: (row[1], math.inf if row[2] is None else row[2], row[0]))
        rankings[ranking] = rows[:TOP]
    return {"figures": figures, "rankings": rankings}
