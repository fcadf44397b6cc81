"""The French catalogue: every entry translated, nothing fuzzy, every plural slot filled, the
same placeholders as the English; the committed .mo compiled from it; makemessages, which sorts,
changes nothing."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.conf import settings

LOCALE = settings.BASE_DIR / "locale"
PO = LOCALE / "fr" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# %(name)s, %s, %d, %%, and {name} (format_lazy) placeholders.
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|%%|\{[a-z_]*\}")
SOURCES = ("apps", "templates", "config", "manage.py")


def catalogue(path: Path):
    with path.open("rb") as file:
        return read_po(file)


def messages(path: Path) -> list:
    return [message for message in catalogue(path) if message.id]


def test_every_french_entry_is_translated_and_none_is_fuzzy():
    untranslated = [
        message.id
        for message in messages(PO)
        if not message.string or (isinstance(message.string, tuple) and not all(message.string))
    ]
    fuzzy = [message.id for message in messages(PO) if message.fuzzy]
    assert not untranslated, f"Untranslated: {untranslated}"
    assert not fuzzy, f"Fuzzy: {fuzzy}"
    assert not catalogue(PO).fuzzy, "the header is marked fuzzy"


def test_every_plural_slot_is_filled():
    nplurals = catalogue(PO).num_plurals
    for message in messages(PO):
        if message.pluralizable:
            assert len(message.string) == nplurals and all(message.string), message.id


def test_placeholders_match_the_english():
    for message in messages(PO):
        ids = message.id if message.pluralizable else (message.id,)
        strings = message.string if message.pluralizable else (message.string,)
        expected = sorted(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            assert sorted(PLACEHOLDER.findall(string)) == expected, (message.id, string)


# French typography (LANGUAGES.md): the typographic apostrophe; a no-break space before the colon
# and inside « »; a narrow no-break space before ; ! ? and the percent sign. A plain space there
# would let a line break strand the sign at the start of a line.
FRENCH_TYPOGRAPHY = {
    "a straight apostrophe (use ’)": re.compile(r"'"),
    "a breaking space before : ; ! ? or »": re.compile(r" [:;!?»]"),
    "a breaking space after «": re.compile(r"« "),
    "a breaking space before a percent sign": re.compile(r"(\d|%\([a-z_]+\)[sd]) %(?![(sd])"),
}


def test_french_entries_follow_french_typography():
    faults = [
        (fault, string)
        for message in messages(PO)
        for string in (message.string if message.pluralizable else (message.string,))
        for fault, pattern in FRENCH_TYPOGRAPHY.items()
        if pattern.search(string)
    ]
    assert not faults, faults[:10]


def _hashable(value):
    """A plural entry's forms as a tuple (the .mo reader gives lists)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def test_the_committed_mo_is_compiled_from_the_po():
    with MO.open("rb") as file:
        compiled = {_hashable(m.id): _hashable(m.string) for m in read_mo(file) if m.id}
    source = {_hashable(m.id): _hashable(m.string) for m in messages(PO)}
    assert compiled == source, "run `make messages` and commit locale/"


@pytest.mark.skipif(
    shutil.which("xgettext") is None,
    reason="makemessages needs GNU gettext (apt-get install gettext)",
)
def test_makemessages_leaves_the_catalogue_as_committed(tmp_path):
    for name in (*SOURCES, "locale"):
        source = settings.BASE_DIR / name
        copy = shutil.copytree if source.is_dir() else shutil.copy
        copy(source, tmp_path / name)
    environment = {**os.environ, "DATA_DIR": str(tmp_path / "data")}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--all", "--no-location", "--no-obsolete"],
        cwd=tmp_path,
        env=environment,
        check=True,
        capture_output=True,
    )
    extracted = [
        ((m.id, m.context), m.string)
        for m in messages(tmp_path / PO.relative_to(settings.BASE_DIR))
    ]
    committed = [((m.id, m.context), m.string) for m in messages(PO)]
    assert dict(extracted).keys() - dict(committed).keys() == set(), "new strings: `make messages`"
    assert dict(committed).keys() - dict(extracted).keys() == set(), (
        "unused strings: `make messages`"
    )
    # Extraction is sorted by msgid (apps/core/management/commands/makemessages.py): the committed
    # catalogue is in that order, whichever modules the strings are in.
    assert committed == extracted, "run `make messages` and commit locale/"
