"""Which scripts of the open files no installed font can draw, and which package adds one.

A machine set up with only the README's package list has DejaVu fonts, which cover Latin,
Greek and Cyrillic but not Hangul, Han or kana: Korean and Chinese text then shows as boxes,
with no hint why. :func:`missing_fonts` samples the characters of each script in the texts and
asks a glyph check whether any installed font has them; :func:`qt_has_glyph` is the app's check
(Qt falls back to any installed family, so one family with the glyph is enough). Tests inject
their own check, so they never depend on the fonts installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

__all__ = [
    "FONT_SAMPLE_LINES",
    "SCRIPTS",
    "GlyphCheck",
    "MissingFont",
    "font_advice",
    "missing_fonts",
    "qt_has_glyph",
    "script_samples",
]

# Lines of each text column sampled for scripts.
FONT_SAMPLE_LINES = 200
# Distinct characters of a script checked for glyphs.
SAMPLE_CHARS = 6

# ``has_glyph(character) -> bool``: can an installed font draw it?
GlyphCheck = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class _Script:
    name: str
    pattern: regex.Pattern[str]
    package: str
    writing_system: QFontDatabase.WritingSystem


_CJK_PACKAGE = "fonts-noto-cjk"
_NOTO_PACKAGE = "fonts-noto-core"
_WS = QFontDatabase.WritingSystem

# Scripts that a default install may lack, with the Debian package that covers them.
SCRIPTS: tuple[_Script, ...] = (
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Korean (Hangul)"),
        regex.compile(r"\p{Script=Hangul}"),
        _CJK_PACKAGE,
        _WS.Korean,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Japanese (kana)"),
        regex.compile(r"[\p{Script=Hiragana}\p{Script=Katakana}]"),
        _CJK_PACKAGE,
        _WS.Japanese,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Chinese characters (Han)"),
        regex.compile(r"\p{Script=Han}"),
        _CJK_PACKAGE,
        _WS.SimplifiedChinese,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Thai"),
        regex.compile(r"\p{Script=Thai}"),
        "fonts-thai-tlwg",
        _WS.Thai,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Arabic"),
        regex.compile(r"\p{Script=Arabic}"),
        _NOTO_PACKAGE,
        _WS.Arabic,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Hebrew"),
        regex.compile(r"\p{Script=Hebrew}"),
        _NOTO_PACKAGE,
        _WS.Hebrew,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Devanagari"),
        regex.compile(r"\p{Script=Devanagari}"),
        _NOTO_PACKAGE,
        _WS.Devanagari,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Bengali"),
        regex.compile(r"\p{Script=Bengali}"),
        _NOTO_PACKAGE,
        _WS.Bengali,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Tamil"),
        regex.compile(r"\p{Script=Tamil}"),
        _NOTO_PACKAGE,
        _WS.Tamil,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Georgian"),
        regex.compile(r"\p{Script=Georgian}"),
        _NOTO_PACKAGE,
        _WS.Georgian,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Armenian"),
        regex.compile(r"\p{Script=Armenian}"),
        _NOTO_PACKAGE,
        _WS.Armenian,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Khmer"),
        regex.compile(r"\p{Script=Khmer}"),
        _NOTO_PACKAGE,
        _WS.Khmer,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Ethiopic"),
        regex.compile(r"\p{Script=Ethiopic}"),
        _NOTO_PACKAGE,
        _WS.Other,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Greek"),
        regex.compile(r"\p{Script=Greek}"),
        _NOTO_PACKAGE,
        _WS.Greek,
    ),
    _Script(
        QT_TRANSLATE_NOOP("fonts", "Cyrillic"),
        regex.compile(r"\p{Script=Cyrillic}"),
        _NOTO_PACKAGE,
        _WS.Cyrillic,
    ),
)


@dataclass(frozen=True, slots=True)
class MissingFont:
    """A script in the texts that no installed font draws: its name, the characters checked
    that have no glyph, and the Debian package that adds a font for it."""

    script: str
    characters: str
    package: str


def script_samples(columns: Iterable[Sequence[str]]) -> dict[str, str]:
    """Per script of :data:`SCRIPTS` found in the first lines of ``columns``, a few distinct
    characters of it (pure Python: any thread may call this)."""
    found: dict[str, list[str]] = {}
    for lines in columns:
        for line in lines[:FONT_SAMPLE_LINES]:
            if line.isascii():
                continue
            for script in SCRIPTS:
                chars = found.get(script.name)
                if chars is not None and len(chars) >= SAMPLE_CHARS:
                    continue
                for ch in script.pattern.findall(line):
                    chars = found.setdefault(script.name, [])
                    if ch not in chars:
                        chars.append(ch)
                        if len(chars) >= SAMPLE_CHARS:
                            break
    return {name: "".join(chars) for name, chars in found.items()}


def missing_fonts(samples: dict[str, str], has_glyph: GlyphCheck) -> list[MissingFont]:
    """The scripts of ``samples`` (from :func:`script_samples`) with characters that no
    installed font can draw, according to ``has_glyph``."""
    missing = []
    for script in SCRIPTS:
        chars = samples.get(script.name, "")
        lacking = "".join(ch for ch in chars if not has_glyph(ch))
        if lacking:
            missing.append(MissingFont(script.name, lacking, script.package))
    return missing


def font_advice(missing: Sequence[MissingFont]) -> str:
    """The banner's words for ``missing`` ("" when nothing is missing)."""
    if not missing:
        return ""
    scripts = ", ".join(QCoreApplication.translate("fonts", m.script) for m in missing)
    packages = " ".join(dict.fromkeys(m.package for m in missing))
    sample = "".join(m.characters[:3] for m in missing)
    return QCoreApplication.translate(
        "fonts",
        "No installed font draws {scripts} (such as {sample}): it shows as boxes. Install "
        "one (Debian/Ubuntu: sudo apt install {packages}) and restart Matchlight; the "
        "scores are not affected.",
    ).format(scripts=scripts, sample=sample, packages=packages)


@lru_cache(maxsize=4096)
def qt_has_glyph(ch: str) -> bool:
    """Whether any installed font family has a glyph for ``ch`` (Qt's font fallback then
    draws it). Needs a QGuiApplication."""
    code = ord(ch)
    if QFontMetrics(QFont()).inFontUcs4(code):
        return True
    return any(QFontMetrics(QFont(f)).inFontUcs4(code) for f in QFontDatabase.families())
