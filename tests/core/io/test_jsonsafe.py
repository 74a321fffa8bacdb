"""core.io.jsonsafe: JSON from users' files and sessions, with limits on nesting and numbers and
no lone surrogates; every problem is the caller's error, naming the file, line and column."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.io.inputs import InputError
from matchlight.core.io.jsonsafe import (
    MAX_DEPTH,
    MAX_NUMBER_CHARS,
    JsonError,
    json_type,
    loads,
)

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_JSON = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=30,
)


def _input_error(text: str, **kwargs: Any) -> InputError:
    with pytest.raises(InputError) as info:
        loads(text, path="data.jsonl", error=InputError, **kwargs)
    return info.value


@settings(max_examples=200, deadline=None)
@given(value=_JSON, indent=st.sampled_from([None, 2]))
def test_valid_json_reads_as_the_json_module_reads_it(value: Any, indent: int | None) -> None:
    for ascii_only in (True, False):
        text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
        assert loads(text, surrogates="keep") == json.loads(text)


# -- nesting -----------------------------------------------------------------------------------


def test_nesting_up_to_the_limit_is_read() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    value = loads(text)
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_deeper_nesting_is_the_callers_error_with_line_and_column(depth: int) -> None:
    text = '{"ok": 1,\n "deep": ' + '{"a": [' * (depth // 2 + 1) + "]}" * (depth // 2 + 1) + "}"
    error = _input_error(text, first_line=7)
    assert (error.path, error.line) == ("data.jsonl", 8)
    # Line 2 is ' "deep": ' then '{"a": [' again and again: its 32nd "[" (column 9 + 7 * 31
    # + 7) is level 1 + 2 * 32 = 65, the first past the limit of 64.
    assert MAX_DEPTH == 64
    assert error.problem == "nested more than 64 levels deep (column 233)"


def test_deep_nesting_in_a_session_field_names_no_file_line() -> None:
    with pytest.raises(JsonError) as info:
        loads("[" * 100_000, first_line=None)
    assert str(info.value) == f"nested more than {MAX_DEPTH} levels deep (column {MAX_DEPTH + 1})"


# -- numbers -----------------------------------------------------------------------------------


def test_numbers_up_to_the_length_limit_are_read() -> None:
    longest = "9" * MAX_NUMBER_CHARS
    assert loads(f"[{longest}]") == [int(longest)]
    assert loads("1e-400") == 0.0
    assert loads("-0.0") == 0.0 and math.copysign(1, loads("-0.0")) == -1


@pytest.mark.parametrize("digits", [MAX_NUMBER_CHARS + 1, 4_301, 5_000, 100_000])
def test_longer_numbers_are_refused_before_python_converts_them(digits: int) -> None:
    error = _input_error('{"score":\n  ' + "1" * digits + "}", first_line=1)
    assert error.line == 2
    assert error.problem == (
        f"a number of {digits:,} characters (111111111111...11111111); at most "
        f"{MAX_NUMBER_CHARS} are read (column 3)"
    )


def test_a_long_number_inside_a_string_is_text() -> None:
    digits = "7" * 5000
    assert loads(f'["{digits}"]') == [digits]
    # The number, not the same digits in the string before it, is named: column 2 + 5000 + 4.
    assert _input_error(f'["{digits}", {digits}]').problem.endswith("(column 5006)")


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1E999"])
def test_numbers_beyond_a_float_are_refused(literal: str) -> None:
    assert _input_error(f"[0, {literal}]").problem == (
        f"the number {literal} is too large for a float (column 5)"
    )


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(literal: str) -> None:
    assert _input_error(f'{{"x": {literal}}}').problem == (
        f"{literal} is not a JSON value (JSON has no NaN or infinity) (column 7)"
    )


# -- lone surrogates ---------------------------------------------------------------------------


def test_lone_surrogates_are_replaced_with_a_note() -> None:
    notes: list[str] = []
    value = loads(
        '{"note": "bad \\ud800 here", "\\udc00k": ["\\ud83d\\ude00", "ok"]}',
        path="spans.jsonl",
        first_line=3,
        notes=notes,
    )
    assert value == {"note": "bad \ufffd here", "\ufffdk": ["\U0001f600", "ok"]}
    assert notes == [
        "spans.jsonl, line 3: 2 string(s) held a lone surrogate (a \\ud800-\\udfff escape that "
        "is not part of a pair, so not a character); replaced with U+FFFD"
    ]
    assert json.dumps(value, ensure_ascii=False).encode("utf-8")  # writable now


def test_lone_surrogates_can_be_refused_or_kept() -> None:
    text = '["fine", "\\ud83d\\ude00", "x\\udfffy"]'
    assert _input_error(text, surrogates="refuse").problem == (
        "a lone surrogate (a \\ud800-\\udfff escape that is not part of a pair) is not a "
        "character (column 28)"
    )
    assert loads(text, surrogates="keep") == ["fine", "\U0001f600", "x\udfffy"]


def test_an_escaped_backslash_before_u_is_no_surrogate() -> None:
    notes: list[str] = []
    assert loads('["\\\\ud800"]', surrogates="refuse", notes=notes) == ["\\ud800"]
    assert notes == []


# -- errors ------------------------------------------------------------------------------------


def test_invalid_json_names_line_and_column() -> None:
    error = _input_error('{"a": 1,\n "b" 2}', first_line=10)
    assert str(error) == ("data.jsonl, line 11: invalid JSON: Expecting ':' delimiter (column 6)")
    with pytest.raises(JsonError) as info:
        loads('{"a": 1,\n "b" 2}', first_line=None)
    assert str(info.value) == "invalid JSON: Expecting ':' delimiter (line 2, column 6)"


def test_the_error_factory_makes_the_callers_error() -> None:
    class Mine(Exception):
        pass

    def make(problem: str, path: str | None, line: int | None) -> Mine:
        return Mine(f"{path}|{line}|{problem}")

    with pytest.raises(Mine, match=r"^s\.matchlight\|None\|invalid JSON"):
        loads("{", path="s.matchlight", first_line=None, error=make)
    assert isinstance(JsonError("x"), ValueError)


def test_strict_false_allows_control_characters_in_strings() -> None:
    with pytest.raises(JsonError, match="Invalid control character"):
        loads('"a\tb"')
    assert loads('"a\tb"', strict=False) == "a\tb"


def test_json_type_names_values() -> None:
    assert [json_type(v) for v in (None, True, {}, [], "", 1, 1.5)] == [
        "null",
        "a boolean",
        "an object",
        "a list",
        "a string",
        "a number",
        "a number",
    ]
