"""The catalogue's names in the reader's language.

Names are data, kept in English in the catalogue's files (data/catalogue.json, data/models.json)
and the database; the names those files ship with are listed here, so that makemessages extracts
them and they are translated like any other string. A name a catalogue editor types in the admin
shows as typed.
Product names stay as their makers write them: only the words around them are translated
("(per GPU, NVL72)", "(China market)"). tests/unit/test_catalogue_names.py checks that every
threshold and energy profile of the catalogue file, and every accelerator and language model
whose name has English words, is listed here.
"""

from django.utils.translation import gettext_noop

from apps.words.language import gettext

THRESHOLD_NAMES = (
    gettext_noop("EU AI Act Art. 51(2) systemic-risk presumption"),
    gettext_noop("US Executive Order 14110 reporting threshold (general models)"),
    gettext_noop("US Executive Order 14110 reporting threshold (biological sequence data)"),
    gettext_noop("California SB 1047 covered model"),
    gettext_noop("California SB 1047 fine-tuned derivative model"),
    gettext_noop("California SB 53 (Transparency in Frontier AI Act) frontier model"),
    gettext_noop(
        "EU guidelines: general-purpose AI model indicator (generates language, images or video)"
    ),
)

ENERGY_PROFILE_NAMES = (
    gettext_noop("World average grid, industry-average data centre (PUE 1.56)"),
    gettext_noop("World average grid, hyperscale cloud data centre (PUE 1.10)"),
    gettext_noop("United States grid, industry-average data centre (PUE 1.56)"),
    gettext_noop("United States grid, hyperscale cloud data centre (PUE 1.10)"),
    gettext_noop("India grid, industry-average data centre (PUE 1.56)"),
    gettext_noop("China grid, industry-average data centre (PUE 1.56)"),
    gettext_noop("Germany grid, industry-average data centre (PUE 1.56)"),
    gettext_noop("Germany grid, hyperscale cloud data centre (PUE 1.10)"),
    gettext_noop("Ireland grid, hyperscale cloud data centre (PUE 1.10)"),
    gettext_noop("Canada grid, new large data centre (PUE 1.3)"),
    gettext_noop("Finland grid, hyperscale cloud data centre (PUE 1.10)"),
    gettext_noop("France grid, new large data centre (PUE 1.3)"),
    gettext_noop("Norway grid, new large data centre (PUE 1.3)"),
)

# Accelerator names (without the vendor) with words around the product's name.
ACCELERATOR_NAMES = (
    gettext_noop("B200 (HGX, 1,000 W)"),
    gettext_noop("A10G (AWS G5 only)"),
    gettext_noop("GB200 (per GPU, NVL72)"),
    gettext_noop("GB300 (per GPU, NVL72, Blackwell Ultra)"),
    gettext_noop("GH200 Grace Hopper, 96 GB (per GPU)"),
    gettext_noop("H20 (China market)"),
    gettext_noop("H800 SXM (China market)"),
    gettext_noop("L20 (China market)"),
)

# Language model names (without the developer) with words around the model's name.
MODEL_NAMES = (
    gettext_noop("Llama 4 Scout (17B active, 16 experts)"),
    gettext_noop("Llama 4 Maverick (17B active, 128 experts)"),
)


def catalogue_name(name: str) -> str:
    """A catalogue name (a threshold's, an energy profile's, an accelerator's, a language
    model's) in the active language when it is one of the catalogue's files, else as it is."""
    return gettext(name) if name else name


def full_name(maker: str, name: str) -> str:
    """An accelerator's or a language model's name after its maker's, in the active language:
    "NVIDIA GB200 (par GPU, NVL72)"."""
    return f"{maker} {catalogue_name(name)}"
