"""A pseudo-locale render of the pages that are worded through gettext: every message becomes
⟦message⟧, so any visible English left outside the brackets bypassed translation.

The pseudo catalogue is made from the French one's messages (ours and Django's own), written as
a .mo for a language "xx" that only this test knows.
"""

import functools
import io
import re
from collections import defaultdict
from collections.abc import Sequence
from html import unescape
from pathlib import Path

import django
import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.test import Client

from apps.catalogue.calibration import calibration_cases
from apps.catalogue.models import (
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
    PriceOffer,
)
from apps.projects.api_methods import api_model_suggestions
from apps.words import numbers
from tests.factories import make_manager

pytestmark = pytest.mark.django_db

PSEUDO = "xx"
SOURCES = [
    settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.po",
    *Path(django.__file__).parent.glob("**/locale/fr/LC_MESSAGES/django.po"),
]
INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
TAG = re.compile(r"<[^>]*>")
HIDDEN = re.compile(r"<(script|style|code|pre)\b.*?</\1>", re.S)
LABELS = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')
# What may stay as it is in any language: names, codes, units and figures.
AS_IS = re.compile(
    r"Compute Planner|\bAPI\b|BF16|FP8|FP16|FP32|TF32|INT8|FP4|TFLOP/s|\bPUE\b|\bUSD\b|amina|English|"
    r"Français|Pseudo|\d(?:\.\d+)?e[+-]\d+|\b(?:CSV|XLSX|PDF|JSON)\b|\bUTC\b|"
    # SI units and symbols, the same in every language the app speaks.
    r"\b(?:FLOP|[kMG]?Wh|kg CO2e|t CO2e|ms|min|h|s|W|m?L)\b|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+|"
    # CLDR's short compact numbers of chart axes ("10k", "1m", "1bn"), the pseudo-locale's being
    # British English's (Babel writes them per locale: "10 k", "1 M", "1 Md" in French).
    r"\b\d+(?:\.\d+)?(?:k|m|bn|tn)\b|"
    # Dates by Babel (CLDR), whose month names are not gettext's: "xx" writes them as en_GB.
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Oct|Nov|Dec)\b"
)


def write_pseudo_catalog(root: Path, marks: tuple[str, str] = ("⟦", "⟧")) -> None:
    """The pseudo-locale's .mo under `root`: every message between the two marks."""
    directory = root / PSEUDO / "LC_MESSAGES"
    directory.mkdir(parents=True)
    (directory / "django.mo").write_bytes(_pseudo_catalog(marks))


@functools.cache
def _pseudo_catalog(marks: tuple[str, str]) -> bytes:
    """The .mo's bytes, made once a process: reading every French catalogue takes a quarter of a
    second, and every pseudo-locale test asks for the same file."""
    opening, closing = marks
    catalog = Catalog(locale="fr")
    for source in SOURCES:
        with source.open("rb") as file:
            for message in read_po(file):
                if message.id and catalog.get(message.id, message.context) is None:
                    forms = message.id[:1] + message.id[1:] * 2
                    strings = (
                        tuple(f"{opening}{form}{closing}" for form in forms)
                        if message.pluralizable
                        else f"{opening}{message.id}{closing}"
                    )
                    catalog.add(message.id, strings, context=message.context)
    file = io.BytesIO()
    write_mo(file, catalog)
    return file.getvalue()


@pytest.fixture
def pseudo_locale(settings, tmp_path, monkeypatch):
    write_pseudo_catalog(tmp_path)
    settings.LOCALE_PATHS = [tmp_path]
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    # CLDR has no "xx": its numbers are written as British English writes them.
    real_locale = numbers.language_locale
    monkeypatch.setattr(
        numbers,
        "language_locale",
        lambda language: Locale.parse("en_GB") if language == PSEUDO else real_locale(language),
    )


def catalogue_data() -> list[str]:
    """The catalogue's own words (names, providers, sources, notes): data, not interface."""
    words = set()
    for model in (
        Accelerator,
        PriceOffer,
        EnergyProfile,
        ComputeThreshold,
        LanguageModel,
        CommitmentDiscount,
    ):
        for row in model.objects.values():
            words |= {
                " ".join(value.split())
                for value in row.values()
                if isinstance(value, str) and len(value) > 1
            }
    words |= {
        f"{vendor} {name}" for vendor, name in Accelerator.objects.values_list("vendor", "name")
    }
    words |= {
        f"{developer} {name}"
        for developer, name in LanguageModel.objects.values_list("developer", "name")
    }
    # the cloud providers' names, which the commitment discounts show
    words |= {str(label) for _value, label in CommitmentDiscount.Provider.choices}
    # the API price catalogue's model names, suggested as the API model is typed
    words |= {label for _slug, label in api_model_suggestions()}
    # the calibration table's published results: names, systems, benchmarks, sources, notes
    words |= {
        " ".join(value.split())
        for case in calibration_cases()
        for value in (case.model_name, case.benchmark, case.system, case.notes)
        if value
    }
    return sorted(words, key=len, reverse=True)


def without_data(text: str, data: Sequence[str]) -> str:
    """`text` with each word of `data` replaced by a space, one word after the other in the order
    of `data` (longest first), exactly as a `str.replace` per word would leave it.

    Only the words that can be in the text are tried: those that begin with three characters the
    text has, or with a space among their first three (a replacement puts a space between two
    stretches of the text, and a word can then span it), or shorter than three. Trying each of
    thousands of catalogue names on every text of every page took most of the check's time."""
    data = tuple(data)
    by_start, always = _words_by_start(data)
    starts = {text[i : i + 3] for i in range(len(text) - 2)}
    tried = sorted({*always, *(i for start in starts & by_start.keys() for i in by_start[start])})
    for index in tried:
        text = text.replace(data[index], " ")
    return text


@functools.lru_cache(maxsize=8)
def _words_by_start(data: tuple[str, ...]) -> tuple[dict[str, list[int]], list[int]]:
    """The positions in `data` of the words by their first three characters, and those of the
    words to try in every text (see without_data)."""
    by_start = defaultdict(list)
    always = []
    for index, word in enumerate(data):
        if len(word) < 3 or " " in word[:3]:
            always.append(index)
        else:
            by_start[word[:3]].append(index)
    return dict(by_start), always


def _as_is(text: str, data: Sequence[str]) -> bool:
    return not re.search(r"[^\W\d_]", AS_IS.sub(" ", without_data(text, data)))


def untranslated(html: str, data: Sequence[str] = ()) -> list[str]:
    """The visible text and labels of a page that are not inside a translated message, nor
    data."""
    body = html.split("<body>", 1)[1]
    while INNERMOST.search(body):
        body = INNERMOST.sub(" ", body)
    texts = LABELS.findall(body)
    texts += TAG.sub("\n", HIDDEN.sub(" ", body)).splitlines()
    leftovers = [" ".join(unescape(text).split()) for text in texts]
    return [text for text in leftovers if text and not _as_is(text, data)]


PAGES = ["/", "/catalogue/", "/glossary/", "/glossary/kv-cache/", "/accounts/login/", "/nowhere/"]
SIGNED_IN_PAGES = ["/accounts/password/", "/accounts/password/done/", "/accounts/tokens/"]


@pytest.mark.parametrize("path", PAGES)
def test_every_word_of_a_public_page_goes_through_gettext(pseudo_locale, path):
    response = Client().get(path, headers={"accept-language": PSEUDO})
    assert response["Content-Language"] == PSEUDO
    assert untranslated(response.content.decode(), catalogue_data()) == []


@pytest.mark.parametrize("path", SIGNED_IN_PAGES)
def test_every_word_of_an_account_page_goes_through_gettext(pseudo_locale, path):
    client = Client()
    client.force_login(make_manager("amina"))
    response = client.get(path, headers={"accept-language": PSEUDO})
    assert response.status_code == 200
    assert untranslated(response.content.decode()) == []


def test_the_data_is_taken_out_as_a_replace_per_word_would_take_it_out():
    data = sorted(
        ["NVIDIA H100 SXM", "H100 SXM", "NVIDIA", "A b", "Rented pilot", "pilot", "xy"],
        key=len,
        reverse=True,
    )
    texts = [
        "NVIDIA H100 SXM, then NVIDIA and H100 SXM alone",
        "ARented pilotb",  # "A b" is there only once "Rented pilot" is taken out
        "xyz pilots",
        "Left in English",
        "",
    ]
    for text in texts:
        one_by_one = text
        for word in data:
            one_by_one = one_by_one.replace(word, " ")
        assert without_data(text, data) == one_by_one
    assert without_data("ARented pilotb", data).strip() == ""


def test_the_check_finds_a_string_that_bypasses_gettext(pseudo_locale):
    html = "<body><p>⟦Translated⟧</p><p>Left in English</p><a aria-label='x'>⟦Ok⟧</a></body>"
    assert untranslated(html) == ["Left in English"]


# The other pages, every route of the URLconf with a world of every object, are rendered by
# tests/integration/test_pseudo_every_page.py.
