"""The password hasher of the test runs (tests/conftest.py puts it first in PASSWORD_HASHERS)."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 as in production with far fewer rounds: a password a test sets costs about
    a millisecond of CPU rather than 0.3 s (1,500,000 rounds), for every manager a test makes.

    Its hashes are ordinary pbkdf2_sha256 ones, each with its round count, so every process
    checks them, the servers and workers a test starts with the production settings too (which
    then re-hash the password at the first sign-in, as after a raise of the round count).
    """

    iterations = 1_000
