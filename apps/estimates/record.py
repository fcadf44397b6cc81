"""The lossless record codec: what leaves the engine, as plain JSON and back to an equal object.

What is kept (a saved version's estimate, a share snapshot, a budget or options record, the
portfolio, what an export reads) is stored as `dump` writes it and read back with `load`, which
gives an object equal to the one dumped, so that readers word it with the same functions as
the live pages. The writing follows the dataclasses' own type hints, so a new result field
needs no code here:

- a dataclass: an object of its fields; tagged with "$type" (its class name) only where the
  hint does not say which class it is;
- `Decimal` as its exact text ("1234.50"), a `date` or `datetime` in ISO 8601, an `Enum` as
  its value, a tuple or a list as an array, a dict with str keys as an object;
- a float as a JSON number (Python writes it back exactly), NaN and infinities as
  {"$float": "nan"}, which JSON and PostgreSQL's jsonb cannot hold as numbers;
- a `Message` (a str that keeps its msgid and parameters) as {"$message": msgid, "params": …}
  (with "plural" and "count" when it has a plural form), its parameters tagged by type, so that
  it reads again in any language.

A record carries the codec's schema version; a record of another version is refused, never
guessed at.
"""

import math
import types
import typing
from dataclasses import fields, is_dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from functools import cache

from apps.estimates.messages import Alternatives, Day, Message, Number

SCHEMA_VERSION = 1
MESSAGE, TYPE, FLOAT, DECIMAL, DATE = "$message", "$type", "$float", "$decimal", "$date"
# The only types a hint of `object` (a Message's parameters) may hold besides scalars.
PARAMETER_TYPES = {cls.__name__: cls for cls in (Number, Day, Alternatives)}


class RecordError(ValueError):
    """A record this codec cannot write or read (another schema version, another type)."""


def dump(value: object) -> dict:
    """`value`, a dataclass, as a record: {"schema": …, "type": its class name, "data": …}."""
    if not is_dataclass(value) or isinstance(value, type):
        raise RecordError(f"only a dataclass instance is recorded, not {type(value).__name__}")
    cls = type(value)
    return {"schema": SCHEMA_VERSION, "type": cls.__name__, "data": _dump(value, cls)}


def load[T](record: dict, cls: type[T]) -> T:
    """The object of class `cls` that `record` (as `dump` wrote it) was written from."""
    schema = record.get("schema") if isinstance(record, dict) else None
    if schema != SCHEMA_VERSION:
        raise RecordError(
            f"a record of schema version {schema!r} cannot be read: this engine reads version "
            f"{SCHEMA_VERSION}"
        )
    if record.get("type") != cls.__name__:
        raise RecordError(f"a record of {record.get('type')!r} is no {cls.__name__}")
    return _load(record["data"], cls)


def is_record(value: object) -> bool:
    """Whether `value` is a record as `dump` writes it (of any schema version)."""
    return isinstance(value, dict) and {"schema", "type", "data"} <= value.keys()


@cache
def _hints(cls: type) -> tuple[tuple[str, object], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in fields(cls) if f.init)


def _members(hint: object) -> tuple | None:
    """The types of a union (None stripped out), or None when `hint` is no union."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return tuple(arg for arg in typing.get_args(hint) if arg is not type(None))
    return None


def _scalar(value: object) -> object:
    """A NumPy scalar as the Python number it holds (the engine computes with NumPy)."""
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return value.item()
    return value


def _dump(value: object, hint: object) -> object:
    value = _scalar(value)
    if isinstance(value, Message):
        params = {name: _dump(param, object) for name, param in value.params.items()}
        plural = {} if value.plural is None else {"plural": value.plural, "count": value.count}
        return {MESSAGE: value.msgid, "params": params, **plural}
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {FLOAT: repr(value)}
    if isinstance(value, Decimal):
        ambiguous = hint is object or str in (_members(hint) or ())
        return {DECIMAL: str(value)} if ambiguous else str(value)
    if isinstance(value, date):
        return {DATE: value.isoformat()} if hint is object else value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value):
        return _dump_dataclass(value, hint)
    if isinstance(value, tuple | list):
        return _dump_sequence(value, hint)
    if isinstance(value, dict):
        value_hint = typing.get_args(hint)[1] if typing.get_args(hint) else object
        if not all(isinstance(key, str) for key in value):
            raise RecordError(f"a dict with keys other than str cannot be recorded: {hint}")
        return {key: _dump(item, value_hint) for key, item in value.items()}
    raise RecordError(f"a {type(value).__name__} cannot be recorded (hint {hint})")


def _dump_dataclass(value: object, hint: object) -> dict:
    cls = type(value)
    if hint is object and cls.__name__ not in PARAMETER_TYPES:
        raise RecordError(f"a {cls.__name__} cannot be recorded where any object may be")
    data = {name: _dump(getattr(value, name), field_hint) for name, field_hint in _hints(cls)}
    return data if hint is cls or _members(hint) == (cls,) else {TYPE: cls.__name__, **data}


def _dump_sequence(value: tuple | list, hint: object) -> list:
    sequence_hint = next(
        (m for m in _members(hint) or (hint,) if typing.get_origin(m) in (tuple, list)), None
    )
    if sequence_hint is None:
        raise RecordError(f"a {type(value).__name__} cannot be recorded where {hint} is")
    args = typing.get_args(sequence_hint)
    if typing.get_origin(sequence_hint) is tuple and not (len(args) == 2 and args[1] is ...):
        return [_dump(item, item_hint) for item, item_hint in zip(value, args, strict=True)]
    return [_dump(item, args[0] if args else object) for item in value]


def _load(data: object, hint: object) -> object:
    if data is None:
        return None
    if isinstance(data, dict) and MESSAGE in data:
        params = {name: _load(param, object) for name, param in data["params"].items()}
        return Message(data[MESSAGE], params, data.get("plural"), data.get("count"))
    if hint is object or hint is typing.Any:
        return _load_tagged(data)
    members = _members(hint)
    if members is not None:
        return _load(data, _member(data, members))
    if isinstance(data, dict) and FLOAT in data:
        return float(data[FLOAT])
    origin = typing.get_origin(hint)
    if origin in (tuple, list):
        return _load_sequence(data, hint, origin)
    if origin is dict:
        value_hint = typing.get_args(hint)[1]
        return {key: _load(item, value_hint) for key, item in data.items()}
    if isinstance(data, dict) and DECIMAL in data:
        return Decimal(data[DECIMAL])
    return _load_plain(data, hint)


def _load_plain(data: object, hint: object) -> object:
    if hint is Decimal:
        return Decimal(data)
    if hint is float:
        return float(data)
    if hint in (int, bool, str):
        return data
    if hint is datetime:
        return datetime.fromisoformat(data)
    if hint is date:
        return date.fromisoformat(data)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(data)
    if is_dataclass(hint):
        return _load_dataclass(data, hint)
    raise RecordError(f"{data!r} cannot be read as {hint}")


def _load_dataclass(data: dict, cls: type) -> object:
    hints = dict(_hints(cls))
    unknown = data.keys() - hints.keys() - {TYPE}
    if unknown:
        raise RecordError(f"a {cls.__name__} has no field {', '.join(sorted(unknown))}")
    return cls(**{name: _load(data[name], hints[name]) for name in hints if name in data})


def _load_sequence(data: list, hint: object, origin: type) -> tuple | list:
    args = typing.get_args(hint)
    if origin is tuple and not (len(args) == 2 and args[1] is ...):
        return tuple(_load(item, item_hint) for item, item_hint in zip(data, args, strict=True))
    items = [_load(item, args[0] if args else object) for item in data]
    return tuple(items) if origin is tuple else items


def _member(data: object, members: tuple) -> object:
    """Which type of a union `data` was written from: by its tag, else by its JSON type."""
    if len(members) == 1:
        return members[0]
    if isinstance(data, dict) and TYPE in data:
        return next(m for m in members if getattr(m, "__name__", None) == data[TYPE])
    if isinstance(data, dict) and FLOAT in data:
        return float
    if isinstance(data, dict) and DECIMAL in data:
        return Decimal
    candidates = {
        bool: (bool,),
        int: (int, float, Decimal),
        float: (float, Decimal),
        str: (Decimal, datetime, date, str),
    }.get(type(data))
    for candidate in candidates or ():
        if candidate in members:
            return candidate
    for member in members:
        origin = typing.get_origin(member)
        if isinstance(data, list) and origin in (tuple, list):
            return member
        if isinstance(data, dict) and (origin is dict or is_dataclass(member)):
            return member
        if isinstance(member, type) and issubclass(member, Enum):
            return member
    raise RecordError(f"{data!r} is none of {members}")


def _load_tagged(data: object) -> object:
    """A value whose hint is `object` (a Message's parameter): its tag says what it is."""
    if isinstance(data, dict):
        if FLOAT in data:
            return float(data[FLOAT])
        if DECIMAL in data:
            return Decimal(data[DECIMAL])
        if DATE in data:
            return date.fromisoformat(data[DATE])
        cls = PARAMETER_TYPES.get(data.get(TYPE))
        if cls is None:
            raise RecordError(f"no parameter type is tagged {data.get(TYPE)!r}")
        return _load_dataclass(data, cls)
    if isinstance(data, list):
        raise RecordError("a list cannot be read where any object may be")
    return data
