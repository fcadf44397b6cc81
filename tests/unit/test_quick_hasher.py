"""The tests' quick password hasher (tests/hashers.py) makes hashes production checks."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password


def test_a_password_set_in_a_test_is_a_pbkdf2_hash_the_production_hasher_checks():
    encoded = make_password("a-long-test-password")
    assert encoded.startswith("pbkdf2_sha256$1000$")
    production = PBKDF2PasswordHasher()
    assert production.verify("a-long-test-password", encoded)
    assert not production.verify("another-password", encoded)
    assert production.must_update(encoded)  # re-hashed with production's rounds at sign-in
