"""An AST scan of gui/ for user-visible text that does not go through Qt's translation.

It looks at the calls that put text on screen (Qt's text setters and constructors, message
boxes, file dialogs, and the few helpers of our own that pass their text on to them) and reports
every argument that is a bare string literal, an f-string, a ``%``/``+`` of literals or a
``"...".format(...)`` call, unless it is wrapped in ``tr``/``translate``. Text computed
elsewhere (a variable, a function's result) is not judged here: the scan catches the literal at
its source, where it would be written.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

#: Calls whose arguments are shown to the user: name -> positions of the text arguments, plus
#: keyword names. A name matches ``name(...)`` and ``anything.name(...)``.
TEXT_SINKS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    # setters
    "setText": ((0,), ()),
    "setToolTip": ((0,), ()),
    "setStatusTip": ((0,), ()),
    "setWhatsThis": ((0,), ()),
    "setWindowTitle": ((0,), ()),
    "setPlaceholderText": ((0,), ()),
    "setTitle": ((0,), ()),
    "setLabel": ((1,), ()),
    "setLabelText": ((0,), ()),
    "setInformativeText": ((0,), ()),
    "setDetailedText": ((0,), ()),
    "setSpecialValueText": ((0,), ()),
    "setSuffix": ((0,), ()),
    "setPrefix": ((0,), ()),
    "setTabText": ((1,), ()),
    "setItemText": ((1,), ()),
    "setAccessibleName": ((0,), ()),
    "setAccessibleDescription": ((0,), ()),
    "setHeaderLabels": ((0,), ()),
    "setHorizontalHeaderLabels": ((0,), ()),
    "setVerticalHeaderLabels": ((0,), ()),
    "showMessage": ((0,), ()),
    "addItem": ((0,), ()),
    "addItems": ((0,), ()),
    "insertItem": ((1,), ()),
    "addAction": ((0, 1), ()),
    "addMenu": ((0, 1), ()),
    "addSection": ((0, 1), ()),
    "addTab": ((1,), ()),
    "insertTab": ((2,), ()),
    "addRow": ((0,), ()),
    "addButton": ((0,), ()),
    "addToolBar": ((0,), ()),
    # constructors
    "QAction": ((0, 1), ("text",)),
    "QLabel": ((0,), ("text",)),
    "QPushButton": ((0, 1), ("text",)),
    "QToolButton": ((), ("text",)),
    "QCheckBox": ((0,), ("text",)),
    "QRadioButton": ((0,), ("text",)),
    "QGroupBox": ((0,), ("title",)),
    "QMenu": ((0,), ("title",)),
    "QToolBar": ((0,), ("title",)),
    "QDockWidget": ((0,), ("title",)),
    "QMessageBox": ((1, 2), ("text", "windowTitle")),
    "QProgressDialog": ((0, 1), ()),
    # static dialogs
    "information": ((1, 2), ("title", "text")),
    "warning": ((1, 2), ("title", "text")),
    "critical": ((1, 2), ("title", "text")),
    "question": ((1, 2), ("title", "text")),
    "about": ((1, 2), ()),
    "getOpenFileName": ((1, 3), ("caption", "filter")),
    "getOpenFileNames": ((1, 3), ("caption", "filter")),
    "getSaveFileName": ((1, 3), ("caption", "filter")),
    "getExistingDirectory": ((1,), ("caption",)),
    "getText": ((1, 2), ()),
    "getItem": ((1, 2), ()),
    "getInt": ((1, 2), ()),
    "getDouble": ((1, 2), ()),
    # helpers of our own that pass their text straight to one of the above
    "_action": ((1, 4), ("tip",)),
    "report_error": ((0, 1), ()),
    "say": ((0,), ()),
    "_error": ((0, 1), ()),
    "notice_sink": ((0, 1), ()),
}

#: Calls that translate (the scan does not look inside them).
TRANSLATORS = frozenset({"tr", "translate", "QT_TR_NOOP", "QT_TRANSLATE_NOOP"})

#: Literal text that is not in any language: symbols, figures, metric names, file patterns.
#: Matched against the whole literal after stripping spaces.
NOT_LANGUAGE = re.compile(
    r"""^(
        [\W\d_]*                      # punctuation, arrows, figures only
      | BLEU | chrF\+*? | chrF | TER | ROUGE(-\w+)? | NLTK-BLEU | MQM | ESA   # metric names
      | [A-Z]                         # a single letter (A/B sides)
    )$""",
    re.VERBOSE,
)

#: Literals that are language-free by design (checked by hand); keep this short.
ALLOWED = frozenset({"Matchlight", "CSV", "LaTeX", "HTML", "SVG", "PNG", "JSON", "Aa", "English"})


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    call: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.call}(... {self.text!r} ...) is not translated"


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_language(text: str) -> bool:
    stripped = re.sub(r"<[^>]*>", "", text).strip()  # markup alone is not language
    if not stripped or stripped in ALLOWED:
        return False
    if NOT_LANGUAGE.match(stripped):
        return False
    return bool(re.search(r"[^\W\d_]{2,}", stripped))


def _untranslated(node: ast.expr) -> str | None:
    """The offending literal text in ``node`` (None when it is translated or not a literal)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if _is_language(node.value) else None
    if isinstance(node, ast.JoinedStr):
        parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
        text = "".join(str(p) for p in parts)
        return text if _is_language(text) else None
    if isinstance(node, ast.BinOp):
        return _untranslated(node.left) or _untranslated(node.right)
    if isinstance(node, ast.IfExp):
        return _untranslated(node.body) or _untranslated(node.orelse)
    if isinstance(node, ast.List | ast.Tuple):
        for element in node.elts:
            found = _untranslated(element)
            if found:
                return found
        return None
    if isinstance(node, ast.Call):
        func = node.func
        if _name(func) in TRANSLATORS:
            return None
        # "...".format(...) / "sep".join([...])
        if isinstance(func, ast.Attribute) and func.attr in {"format", "join"}:
            found = _untranslated(func.value)
            if found:
                return found
            for arg in node.args:
                found = _untranslated(arg)
                if found:
                    return found
        return None
    return None


def scan_source(source: str, path: Path) -> list[Finding]:
    findings: list[Finding] = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        call = _name(node.func)
        sink = TEXT_SINKS.get(call)
        if sink is None:
            continue
        positions, keywords = sink
        arguments = [node.args[i] for i in positions if i < len(node.args)]
        arguments += [k.value for k in node.keywords if k.arg in keywords]
        for argument in arguments:
            text = _untranslated(argument)
            if text is not None:
                findings.append(Finding(path, node.lineno, call, text))
    return findings


def scan_tree(root: Path, excluded: frozenset[str]) -> list[Finding]:
    """Findings in every ``*.py`` under ``root`` but the ``excluded`` ones (paths relative to
    ``root``'s parent, with ``/``)."""
    findings: list[Finding] = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).as_posix()
        if relative in excluded:
            continue
        findings += scan_source(path.read_text(encoding="utf-8"), Path(relative))
    return findings


if __name__ == "__main__":
    import sys

    here = Path(__file__).resolve().parents[3]
    found = scan_tree(here / "gui", frozenset(sys.argv[1:]))
    for finding in found:
        print(finding)
    print(len(found), "findings")
