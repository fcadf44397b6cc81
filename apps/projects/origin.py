"""Where a scenario's figures came from when an app made it (re-planned from actuals): a note
kept through the record codec, worded in the reader's language."""

from dataclasses import dataclass

from apps.estimates.messages import Message
from apps.estimates.record import RecordError, dump, is_record, load
from apps.words.messages import message_text


@dataclass(frozen=True)
class ScenarioOrigin:
    note: Message


def origin_record(note: Message) -> dict:
    return dump(ScenarioOrigin(note))


def origin_text(origin: dict) -> str:
    """The note in the active language; "" for a scenario a person made (or an unreadable
    record)."""
    if not is_record(origin):
        return ""
    try:
        return message_text(load(origin, ScenarioOrigin).note)
    except RecordError:
        return ""
