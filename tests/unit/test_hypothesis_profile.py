"""The suite's Hypothesis profile (tests/conftest.py) is in force: without it, a merge that drops
it would go unnoticed, and property tests would fail on the machine's load, not on their code."""

from hypothesis import settings


def test_property_tests_have_no_per_example_deadline():
    assert settings._current_profile == "suite"
    assert settings().deadline is None
