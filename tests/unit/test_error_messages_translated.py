"""Every error message a user or an API caller reads goes through gettext: the source is read for
messages written as plain or f-strings where an error is raised or recorded, so one that bypasses
translation fails here before it reaches a page or an API answer in English.

Read: `raise X("…")` and `X("…")` for exceptions (anything but Python's and Django's own
exceptions for developers), `errors.add(key, "…")`, `messages.success(request, "…")` and the like, `{"field": ["…"]}` handed to either, and the
messages DRF and Django take from class attributes (`default_detail`, `message`,
`default_error_messages`, `error_messages=`, validators' messages).
"""

import ast
from pathlib import Path

from django.conf import settings

APPS = settings.BASE_DIR / "apps"
GETTEXT = {
    "_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
    "npgettext", "npgettext_lazy", "format_lazy",
}  # fmt: skip
# Exceptions for developers, never shown to a user as they are.
FOR_DEVELOPERS = {
    "TypeError", "ValueError", "KeyError", "RuntimeError", "LookupError", "AssertionError",
    "NotImplementedError", "AttributeError", "ImproperlyConfigured", "TemplateSyntaxError",
    "SystemExit", "CommandError",
    "RecordError",  # a stored record the codec cannot write or read: a fault, never a user's
}  # fmt: skip
MESSAGE_ATTRIBUTES = {"default_detail", "message", "default_error_messages"}
MESSAGE_KEYWORDS = {"error_messages", "message"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_exception(name: str) -> bool:
    return name not in FOR_DEVELOPERS and (
        name.endswith(("Error", "Exception", "Denied", "Failed", "Throttled", "Conflict"))
        or name in {"Http404", "NotFound", "NothingToShare", "PreconditionRequired"}
    )


def _plain_messages(node: ast.AST) -> list[ast.AST]:
    """The strings under `node` that are words and not inside a gettext call."""
    if isinstance(node, ast.Call) and _name(node.func) in GETTEXT:
        return []
    if isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        words = node.value.split()
        return [node] if len(words) > 1 and any(c.isalpha() for c in node.value) else []
    if isinstance(node, ast.Dict):
        # Keys are field names; values are the messages.
        return [m for value in node.values for m in _plain_messages(value)]
    if isinstance(node, ast.Call):
        return [m for arg in [*node.args, *node.keywords] for m in _plain_messages(arg)]
    return [m for child in ast.iter_child_nodes(node) for m in _plain_messages(child)]


def _untranslated(tree: ast.AST) -> list[ast.AST]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if _is_exception(name):
                found += [m for arg in node.args for m in _plain_messages(arg)]
            elif (
                name.endswith("Validator")
                or (name == "add" and _name(getattr(node.func, "value", None)).endswith("errors"))
                or _name(getattr(node.func, "value", None)) == "messages"
            ):
                # errors.add(key, message), MaxValueValidator(limit, message),
                # messages.success(request, message)
                found += [m for arg in node.args[1:] for m in _plain_messages(arg)]
            found += [
                m
                for keyword in node.keywords
                if keyword.arg in MESSAGE_KEYWORDS
                for m in _plain_messages(keyword.value)
            ]
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and any(
                    _name(target) in MESSAGE_ATTRIBUTES for target in statement.targets
                ):
                    found += _plain_messages(statement.value)
    return found


def _sources() -> list[Path]:
    return [
        path
        for path in sorted(APPS.rglob("*.py"))
        if not {"migrations", "management"} & set(path.parts)
    ]


def test_every_error_message_goes_through_gettext():
    found = [
        f"{path.relative_to(settings.BASE_DIR)}:{node.lineno}: {ast.unparse(node)[:80]}"
        for path in _sources()
        for node in _untranslated(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_the_check_finds_a_message_that_bypasses_gettext():
    source = """
class Refused(APIException):
    default_detail = "Not now."

def check(errors, slug):
    raise ValidationError({"period_end": ["The end is before the start."]})
    raise NotFound(f"No format {slug}.")
    errors.add("training.accelerator", "Choose an accelerator.")
    messages.success(request, "It is saved.")
    raise ValidationError(gettext("This one is fine."))
    raise ValueError("For developers.")
"""
    found = [ast.unparse(node) for node in _untranslated(ast.parse(source))]
    assert found == [
        "'Not now.'",
        "'The end is before the start.'",
        "f'No format {slug}.'",
        "'Choose an accelerator.'",
        "'It is saved.'",
    ]
