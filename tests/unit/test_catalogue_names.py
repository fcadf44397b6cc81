"""The catalogue's names in French: every threshold and energy profile of the catalogue file, and
every accelerator name with words around the product's name, is listed for translation, and the
pages, forms and descriptions show it in the reader's language."""

import json
import re
from dataclasses import replace

from django.utils import translation

from apps.catalogue import names
from apps.catalogue.loading import CATALOGUE_FILE, MODELS_FILE
from apps.estimates.results import ThresholdResult
from apps.projects.describe import describe
from tests.unit.test_describe import translation_assistant

CATALOGUE = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
# Words (not product codes such as "gpt-oss-20b") or numbers written the English way around a
# product's name.
ENGLISH_AROUND = re.compile(r"(?<![\w-])[a-z]{2,}(?![\w-])|\d,\d{3}|\d GB\b")
MODELS = json.loads(MODELS_FILE.read_text(encoding="utf-8"))["models"]


def test_every_threshold_and_energy_profile_of_the_file_is_listed_and_no_other():
    assert set(names.THRESHOLD_NAMES) == {t["name"] for t in CATALOGUE["thresholds"]}
    assert set(names.ENERGY_PROFILE_NAMES) == {p["name"] for p in CATALOGUE["energy_profiles"]}


def test_every_accelerator_and_model_name_with_english_around_it_is_listed():
    wordy = {a["name"] for a in CATALOGUE["accelerators"] if ENGLISH_AROUND.search(a["name"])}
    assert wordy == set(names.ACCELERATOR_NAMES)
    wordy = {m["name"] for m in MODELS if ENGLISH_AROUND.search(m["name"])}
    assert wordy == set(names.MODEL_NAMES)


def test_each_listed_name_reads_in_french_and_an_unknown_name_as_typed():
    listed = (
        *names.THRESHOLD_NAMES,
        *names.ENERGY_PROFILE_NAMES,
        *names.ACCELERATOR_NAMES,
        *names.MODEL_NAMES,
    )
    with translation.override("fr"):
        french = {name: names.catalogue_name(name) for name in listed}
        assert names.catalogue_name("A name typed in the admin") == "A name typed in the admin"
        assert names.full_name("NVIDIA", "GB200 (per GPU, NVL72)") == (
            "NVIDIA GB200 (par GPU, NVL72)"
        )
    assert all(french[name] != name for name in listed), [n for n in listed if french[n] == n]
    assert french["France grid, new large data centre (PUE 1.3)"] == (
        "Réseau électrique de la France, grand centre de données récent (PUE 1,3)"
    )


def test_the_french_description_names_thresholds_in_french():
    result = translation_assistant()
    name = "EU AI Act Art. 51(2) systemic-risk presumption"
    threshold = ThresholdResult(name=name, flop=1e25, exceeded=False)
    result = replace(result, training=replace(result.training, thresholds=(threshold,)))
    with translation.override("fr"):
        text = " ".join(describe(result, view="many"))
    assert "Règlement européen sur l’IA, art. 51, par. 2" in text
    assert "systemic-risk" not in text
