"""The path converter of object ids: digits that fit the databases' 64-bit keys."""


class IdConverter:
    """Like Django's `int`, but at most 18 digits: a longer id names nothing and is a 404 from the
    URL resolver, where `int` would hand the database a number it cannot bind (a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
