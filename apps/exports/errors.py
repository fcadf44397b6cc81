"""Nested validation errors as plain lines, each led by the path of the field it is about."""


def error_lines(detail, path: str = "") -> list[str]:
    """{"training": {"mfu": ["Too high."]}} → ["training.mfu: Too high."]; list items by index."""
    if isinstance(detail, dict):
        return [
            line
            for key, value in detail.items()
            for line in error_lines(value, f"{path}.{key}" if path else str(key))
        ]
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return [f"{path}: {item}" if path else str(item) for item in detail]
        return [
            line
            for index, item in enumerate(detail)
            if item
            for line in error_lines(item, f"{path}.{index}" if path else str(index))
        ]
    return [f"{path}: {detail}" if path else str(detail)]
