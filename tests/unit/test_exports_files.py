"""Exports without a database: formula-safe cells, sheet names, PDF text, errors, reading files."""

import json

import pytest

from apps.core.spreadsheet_text import formula_safe, printable
from apps.exports.cells import pdf_markup, pdf_plain
from apps.exports.errors import error_lines
from apps.exports.json_export import MAX_IMPORT_BYTES, DocumentError, read_document
from apps.exports.pdf_fonts import missing_fonts_message, pdf_fonts
from apps.exports.xlsx_export import sheet_titles


@pytest.mark.parametrize(
    "text",
    ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(1)", "\tcmd", "\r=1"],
)
def test_text_a_spreadsheet_would_run_gets_a_leading_quote(text):
    assert formula_safe(text) == f"'{text}"


@pytest.mark.parametrize("text", ["Pilot", "A = B", "", "3 × 10²³ FLOP", " =1"])
def test_other_text_is_left_as_it_is(text):
    assert formula_safe(text) == text


def test_control_characters_xml_cannot_hold_are_dropped_but_line_breaks_stay():
    assert printable("a\x00b\x07c\x1fd\te\nf\r") == "abcd\te\nf\r"


def test_sheet_titles_are_at_most_31_allowed_characters_and_unique_in_any_case():
    names = [
        "Pilot",
        "pilot",
        "Summary",
        "a/b\\c?d*e:f[g]h",
        "x" * 40,
        "x" * 40,
        "'quoted'",
        "History",
        "",
        "///",
    ]
    titles = sheet_titles(names, {"Summary"})
    assert titles[:2] == ["Pilot", "pilot (2)"]
    assert titles[2] == "Summary (2)"
    assert titles[3] == "a b c d e f g h"
    assert titles[4] == "x" * 31 and titles[5] == "x" * 27 + " (2)"
    assert titles[6] == "quoted"
    assert titles[7] == "History (2)"
    assert titles[8] == "Scenario" and titles[9] == "Scenario (2)"
    assert all(len(title) <= 31 for title in titles)
    assert len({title.casefold() for title in titles}) == len(titles)


def test_pdf_markup_escapes_text_raises_exponents_and_names_the_font_of_each_sign():
    markup = pdf_markup("3.15 × 10²³ FLOP <b>&</b> −5 ✓ 🚀\nnext")
    start = "3.15 × 10<super>23</super> FLOP &lt;b&gt;&amp;&lt;/b&gt; "
    if pdf_fonts().embedded:
        symbol = '<font name="cp-symbols">{}</font>'.format
        assert markup == f"{start}{symbol('−')}5 {symbol('✓')} ?<br/>next"
    else:  # Helvetica, Windows-1252 only
        assert markup == f"{start}-5 ? ?<br/>next"
    assert pdf_plain("1.5 × 10⁻⁴ s") == "1.5 × 10^-4 s"


def test_pdf_markup_sets_arabic_right_to_left_and_chinese_in_their_fonts():
    if not pdf_fonts().embedded:
        pytest.skip(missing_fonts_message(["the PDF fonts"]))
    markup = pdf_markup("Plan — 翻译助手 — مساعد الترجمة (2)")
    assert markup == (
        'Plan — <font name="cp-cjk">翻译助手</font> — '
        '<font name="cp-arabic">الترجمة مساعد</font> (2)'
    )


def test_nested_errors_read_as_lines_led_by_their_field_path():
    errors = {
        "project": {
            "scenarios": [{}, {"inputs": {"training": {"mfu": ["Too high."]}}}],
            "title": ["This field is required."],
        },
        "non_field_errors": ["Bad."],
    }
    assert error_lines(errors) == [
        "project.scenarios.1.inputs.training.mfu: Too high.",
        "project.title: This field is required.",
        "non_field_errors: Bad.",
    ]
    assert error_lines({"training.accelerator": ["No accelerator 'x'."]}) == [
        "training.accelerator: No accelerator 'x'."
    ]


def test_a_document_is_read_from_utf8_json_with_or_without_a_byte_order_mark():
    assert read_document(b'{"a": 1}') == {"a": 1}
    assert read_document('\ufeff{"a": "Zürich"}'.encode()) == {"a": "Zürich"}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"{'a': 1}", "not valid JSON"),
        (b'{"a": NaN}', "not valid JSON"),
        (b'{"a": Infinity}', "not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
        (json.dumps({"a": "x" * MAX_IMPORT_BYTES}).encode(), "larger than 2 MB"),
    ],
)
def test_a_file_that_is_not_a_json_document_is_refused_with_a_reason(raw, message):
    with pytest.raises(DocumentError, match=message):
        read_document(raw)
