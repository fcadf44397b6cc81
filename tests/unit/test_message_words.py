"""A Message in the reader's language (apps/words/messages.py): its plural by its count, its
numbers and dates by Babel, and the English it keeps for JSON."""

import pickle
from datetime import date

from django.utils import translation

from apps.estimates.messages import Day, _, exact, ngettext
from apps.words.messages import message_text, messages_text

NNBSP = "\u202f"
OFFERS = (
    "Price %(price)s USD per accelerator-hour: the median of %(offers)s rental offer for "
    "%(accelerator)s in the catalogue.",
    "Price %(price)s USD per accelerator-hour: the median of %(offers)s rental offers for "
    "%(accelerator)s in the catalogue.",
)


def offers_note(count: int):
    return ngettext(*OFFERS, "offers", price=exact(1234.5), offers=count, accelerator="NVIDIA L4")


def test_a_plural_message_picks_its_english_by_its_count_and_survives_a_pickle():
    assert "the median of 1 rental offer for" in offers_note(1)
    assert "the median of 3 rental offers for" in offers_note(3)
    assert "Price 1,234.5 USD" in offers_note(3)
    again = pickle.loads(pickle.dumps(offers_note(3)))
    assert (again, again.msgid, again.plural, again.count) == (
        offers_note(3),
        OFFERS[0],
        OFFERS[1],
        "offers",
    )


def test_a_plural_message_in_french_takes_the_form_its_count_asks_for():
    with translation.override("fr"):
        one, three = message_text(offers_note(1)), message_text(offers_note(3))
    assert "la médiane de 1 offre de location" in one
    assert "la médiane de 3 offres de location" in three
    assert f"Prix de 1{NNBSP}234,5 USD" in three


def test_an_exact_number_keeps_its_digits_and_a_day_its_width():
    message = _(
        "%(sliding)s of its %(layers)s layers keep only the last %(window)s tokens in their "
        "KV cache (sliding window).",
        sliding=exact(63),
        layers=exact(126),
        window=exact(131072),
    )
    assert message.startswith("63 of its 126 layers keep only the last 131,072 tokens")
    with translation.override("fr"):
        assert f"131{NNBSP}072" in message_text(message)
    first = Day(date(1990, 1, 1), "medium")
    assert str(first) == "1 Jan 1990"
    with translation.override("fr"):
        assert "1 janv. 1990" in messages_text([_("%(day)s", day=first)])


def test_text_that_is_no_message_is_left_as_it_is():
    assert message_text(None) == ""
    assert message_text("A name someone typed") == "A name someone typed"
