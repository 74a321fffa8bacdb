"""The one JSON loader for text Matchlight did not write itself: users' files and session fields.

:func:`loads` is :func:`json.loads` with the limits a hostile file needs, so that no JSON can
end in a traceback, a crash or a value that breaks a later step:

* nesting deeper than :data:`MAX_DEPTH` is refused (Python's own parser raises RecursionError
  about 1,000 levels down, and deep values break every recursive step after it);
* a number longer than :data:`MAX_NUMBER_CHARS` characters is refused (Python refuses to
  convert integers of more than 4,300 digits with a ValueError, and a huge integer raises
  OverflowError wherever it meets a float), as is a number out of a float's range (``1e400``)
  and ``NaN``/``Infinity``, which are not JSON;
* a lone UTF-16 surrogate (``"\\ud800"``) is not a character and cannot be written as UTF-8
  (a session, a CSV, Qt): it is replaced with U+FFFD (with a note for the user), refused, or
  kept for a caller that reports it itself.

Every problem is raised as the caller's error type, made by ``error(problem, path, line)``
(:class:`~matchlight.core.io.inputs.InputError` has that signature), naming the line and the
column where the text is a file's.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable
from typing import Any, Final, Literal

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "ErrorFactory",
    "JsonError",
    "json_type",
    "loads",
]

#: The deepest nesting of objects and lists accepted (Matchlight's own JSON nests 5 deep).
MAX_DEPTH: Final[int] = 64
#: The most characters a JSON number may have (a double needs at most 24).
MAX_NUMBER_CHARS: Final[int] = 100


class JsonError(ValueError):
    """Invalid or hostile JSON: ``problem``, and where (``path``, ``line``) when known."""

    def __init__(self, problem: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(problem, path, line)
        self.problem = problem
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = [w for w in (self.path, None if self.line is None else f"line {self.line}") if w]
        return f"{', '.join(where)}: {self.problem}" if where else self.problem


#: Makes the caller's exception from ``(problem, path, line)``.
ErrorFactory = Callable[[str, str | None, int | None], Exception]
Surrogates = Literal["replace", "refuse", "keep"]


class _Refused(Exception):
    """Raised inside the parser's hooks: ``literal`` is the text refused, ``problem`` why."""

    def __init__(self, literal: str, problem: str) -> None:
        super().__init__(literal, problem)
        self.literal = literal
        self.problem = problem


def _shown(literal: str) -> str:
    return literal if len(literal) <= 24 else f"{literal[:12]}...{literal[-8:]}"


def _too_long(literal: str) -> _Refused:
    return _Refused(
        literal,
        f"a number of {len(literal):,} characters ({_shown(literal)}); at most "
        f"{MAX_NUMBER_CHARS} are read",
    )


def _parse_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _too_long(literal)
    return int(literal)


def _parse_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _too_long(literal)
    value = float(literal)
    if math.isinf(value):
        raise _Refused(literal, f"the number {_shown(literal)} is too large for a float")
    return value


def _parse_constant(literal: str) -> Any:
    raise _Refused(literal, f"{literal} is not a JSON value (JSON has no NaN or infinity)")


_LOCAL: Final = threading.local()


def _decoder(strict: bool) -> json.JSONDecoder:
    """This thread's decoder (a decoder's scanner keeps state while it runs, and the hooks
    above are Python code, during which another thread may run)."""
    decoders: dict[bool, json.JSONDecoder] | None = getattr(_LOCAL, "decoders", None)
    if decoders is None:
        decoders = _LOCAL.decoders = {}
    found = decoders.get(strict)
    if found is None:
        found = decoders[strict] = json.JSONDecoder(
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            strict=strict,
        )
    return found


_STRING: Final = r'"(?:[^"\\]|\\.)*"'
_BRACKETS: Final[re.Pattern[str]] = re.compile(_STRING + r"|[\[\]{}]", re.DOTALL)
#: A surrogate escape (the parser pairs valid ones) or a surrogate already in the text.
_SURROGATE_HINT: Final[re.Pattern[str]] = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_SURROGATE: Final[re.Pattern[str]] = re.compile("[\ud800-\udfff]")
#: A surrogate escape that is not half of a pair (for the position in a message).
_LONE_ESCAPE: Final[re.Pattern[str]] = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def json_type(value: object) -> str:
    """What a JSON value is, for messages: ``"an object"``, ``"a list"``, ``"a string"``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return "a number"


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _literal_offset(text: str, literal: str) -> int | None:
    """Where ``literal`` first occurs outside a string, or None."""
    pattern = re.compile(_STRING + "|" + re.escape(literal), re.DOTALL)
    for found in pattern.finditer(text):
        if not found.group().startswith('"'):
            return found.start()
    return None


def _too_deep_offset(text: str, limit: int) -> int | None:
    """Where the nesting first goes deeper than ``limit``, or None."""
    depth = 0
    for found in _BRACKETS.finditer(text):
        token = found.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return found.start()
        elif token in "]}":
            depth -= 1
    return None


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether containers in ``value`` nest deeper than ``limit`` (iteratively)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def _replace_surrogates(value: Any) -> tuple[Any, int]:
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD, and
    how many strings held one. Containers are changed in place; iterative."""
    count = 0

    def fix(text: str) -> str:
        nonlocal count
        if _SURROGATE.search(text) is None:
            return text
        count += 1
        return _SURROGATE.sub("\ufffd", text)

    if isinstance(value, str):
        return fix(value), count
    stack: list[Any] = [value] if isinstance(value, dict | list) else []
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            for i, child in enumerate(item):
                if isinstance(child, str):
                    item[i] = fix(child)
                elif isinstance(child, dict | list):
                    stack.append(child)
        else:
            pairs = [(fix(k), fix(v) if isinstance(v, str) else v) for k, v in item.items()]
            item.clear()
            item.update(pairs)
            stack.extend(v for _, v in pairs if isinstance(v, dict | list))
    return value, count


def loads(
    text: str,
    *,
    path: str | None = None,
    first_line: int | None = 1,
    error: ErrorFactory = JsonError,
    surrogates: Surrogates = "replace",
    notes: list[str] | None = None,
    strict: bool = True,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """The value of the JSON ``text`` from ``path``, within the limits of this module.

    ``first_line`` is the file line ``text`` starts on (a JSON Lines record: its line; a whole
    file: 1); None when the text is not a file's (a session field), so no line is named.
    ``surrogates``: "replace" lone surrogates with U+FFFD (adding a sentence to ``notes`` when
    given), "refuse" them, or "keep" them for the caller. ``strict=False`` allows control
    characters inside strings, as :class:`json.JSONDecoder` does. Raises
    ``error(problem, path, line)``.
    """

    def fail(problem: str, offset: int | None) -> Exception:
        if offset is None:
            return error(problem, path, first_line)
        line, column = _position(text, offset)
        if first_line is None:
            where = f"line {line}, column {column}" if "\n" in text else f"column {column}"
            return error(f"{problem} ({where})", path, None)
        return error(f"{problem} (column {column})", path, first_line + line - 1)

    try:
        value = _decoder(strict).decode(text)
    except json.JSONDecodeError as exc:
        raise fail(f"invalid JSON: {exc.msg}", exc.pos) from None
    except _Refused as exc:
        raise fail(exc.problem, _literal_offset(text, exc.literal)) from None
    except RecursionError:
        raise fail(
            f"nested more than {max_depth} levels deep", _too_deep_offset(text, max_depth)
        ) from None
    if (
        isinstance(value, dict | list)
        and text.count("[") + text.count("{") > max_depth
        and _deeper_than(value, max_depth)
    ):
        raise fail(f"nested more than {max_depth} levels deep", _too_deep_offset(text, max_depth))
    if surrogates != "keep" and _SURROGATE_HINT.search(text) is not None:
        value, count = _replace_surrogates(value)
        if count and surrogates == "refuse":
            found = _LONE_ESCAPE.search(text)
            raise fail(
                "a lone surrogate (a \\ud800-\\udfff escape that is not part of a pair) is "
                "not a character",
                None if found is None else found.start(),
            )
        if count and notes is not None:
            where = ", ".join(
                w for w in (path, None if first_line is None else f"line {first_line}") if w
            )
            notes.append(
                f"{where + ': ' if where else ''}{count} string(s) held a lone surrogate (a "
                "\\ud800-\\udfff escape that is not part of a pair, so not a character); "
                "replaced with U+FFFD"
            )
    return value
