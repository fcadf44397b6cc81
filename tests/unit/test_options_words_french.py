"""The decision page's sentences in French: volumes of requests with "de" after a magnitude word
and French digits, rounded as the engine's English sentence rounds them."""

from django.utils import translation

from apps.options.presentation import volume

NNBSP = "\u202f"


def test_volumes_of_requests_read_in_french():
    with translation.override("fr"):
        assert volume(4_549_000) == "4,5 millions de demandes"
        assert volume(1_500_000) == "1,5 million de demandes"
        assert volume(2_340_000_000) == "2,3 milliards de demandes"
        assert volume(811_666.7) == f"811{NNBSP}667 demandes"


def test_volumes_of_requests_read_as_the_engine_writes_them_in_english():
    with translation.override("en"):
        assert volume(4_549_000) == "4.5 million requests"
        assert volume(1_000_000) == "1.0 million requests"
        assert volume(811_666.7) == "811,667 requests"
