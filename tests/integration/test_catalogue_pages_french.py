"""The catalogue pages in French: the attention kinds in words, every number written by Babel
(a decimal comma, digits grouped with a narrow no-break space, U+202F), as in English with a
decimal point and commas."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def page(path: str, language: str) -> str:
    response = Client().get(path, headers={"accept-language": language})
    assert response.status_code == 200
    return response.content.decode()


def model_row(html: str, name: str) -> str:
    row = re.search(rf"<tr>\s*<th scope=\"row\">{re.escape(name)}</th>(.*?)</tr>", html, re.S)
    assert row is not None, name
    return row[1]


def test_the_model_catalogue_words_attention_and_writes_numbers_in_french():
    french = model_row(page("/catalogue/models/", "fr"), "Llama 3.1 405B (Meta)")
    english = model_row(page("/catalogue/models/", "en-gb"), "Llama 3.1 405B (Meta)")
    assert "attention à requêtes groupées (GQA)" in french
    assert "grouped-query attention (GQA)" in english
    # hidden size and context length, grouped as each language groups digits
    assert "<td>16\u202f384</td>" in french and "<td>131\u202f072</td>" in french
    assert "<td>16,384</td>" in english and "<td>131,072</td>" in english
    assert "<td>405</td>" in french  # billions of parameters, no decimals left to show
    deepseek = model_row(page("/catalogue/models/", "fr"), "DeepSeek-V3 (DeepSeek)")
    assert "attention latente multitête (MLA)" in deepseek


def test_the_hardware_catalogue_writes_its_figures_in_french():
    french = page("/catalogue/", "fr")
    row = re.search(r"NVIDIA H100 SXM</th>(.*?)</tr>", french, re.S)[1]
    assert "<td>3,35</td>" in row  # memory bandwidth, TB/s
    prices = re.findall(r"(\d+,\d\d) \(", row)
    assert prices and all(re.fullmatch(r"\d+,\d\d", price) for price in prices)
    english = re.search(r"NVIDIA H100 SXM</th>(.*?)</tr>", page("/catalogue/", "en-gb"), re.S)[1]
    assert "<td>3.35</td>" in english
