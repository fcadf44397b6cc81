"""Unit constants of the estimate engine: time, FLOP scales and bytes per parameter."""

SECONDS_PER_HOUR = 3600.0
# An average calendar month (365.25 days / 12), so twelve months make a Julian year.
HOURS_PER_MONTH = 365.25 * 24 / 12
SECONDS_PER_MONTH = HOURS_PER_MONTH * SECONDS_PER_HOUR
HOURS_PER_YEAR = 365.25 * 24
FLOP_PER_PETAFLOP_S_DAY = 1e15 * 86_400
TERA = 1e12
WATTS_PER_KILOWATT = 1000.0

# FP4 weights are half a byte each (NVFP4 and MXFP4 add a small scale per block, left out).
BYTES_PER_PARAMETER = {
    "fp32": 4,
    "tf32": 4,
    "bf16": 2,
    "fp16": 2,
    "fp8": 1,
    "int8": 1,
    "fp4": 0.5,
}
PRECISIONS = tuple(BYTES_PER_PARAMETER)
