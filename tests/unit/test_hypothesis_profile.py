"""The suite's Hypothesis profile is in force: a merge once dropped it from tests/conftest.py
silently, and property tests then failed on the machine's load instead of on their code."""

from hypothesis import settings


def test_property_tests_have_no_per_example_deadline():
    assert settings._current_profile == "suite"
    assert settings().deadline is None
