"""``matchlight report`` and :func:`export_report`: the page's numbers are core's, its text is
escaped, and it points at nothing outside itself.

The tests parse the written HTML (:class:`Dom`) and compare every number it carries (the
unrounded ``data-value`` attributes next to the rounded text) with core computed directly, and
BLEU and chrF with sacreBLEU too. Rendering in a real browser is
tests/core/report/test_report_chromium.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import sacrebleu

from matchlight.core.analysis.buckets import bucket_means, length_buckets
from matchlight.core.analysis.columnstats import significance_by_column
from matchlight.core.analysis.selection import SegmentRange, Selection, Sort
from matchlight.core.analysis.significance import signature_with
from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Severity, Status
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, system_mqm
from matchlight.core.cli.report import main
from matchlight.core.io.inputs import parse_spec
from matchlight.core.io.reading import load_comparison
from matchlight.core.report.charts import HISTOGRAM_EDGES
from matchlight.core.report.export import (
    ReportOptions,
    export_report,
    read_session,
    render_report,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetailer
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.store import SessionInput, SessionStore
from matchlight.core.text.tokenizers import bleu_tokenizer
from tests.conftest import SAMPLE, SHARED_DATA
from tests.core.report.reportkit import Dom, Node, painted
from tests.kit import read_lines

WMT = SHARED_DATA / "wmt22-de-en"
SEGMENTS = "1-700,900-1200"
BASELINE = "Lan-Bridge"
MAX_ROWS = 30


# -- a small DOM of the written page ---------------------------------------------------------


def value(node: Node) -> float:
    text = node.attrs["data-value"]
    return math.nan if text == "nan" else float(text)


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def expected_looks(
    n: int, ranges: list[tuple[int, int, str, int]]
) -> list[tuple[str | None, str | None]]:
    """The app's painting of ``ranges`` (later ranges over earlier ones), per character."""
    tint: list[str | None] = [None] * n
    line: list[str | None] = [None] * n
    for a, b, kind, level in ranges:
        for k in range(max(a, 0), min(b, n)):
            if kind == "match":
                tint[k] = f"m{level}"
            elif kind == "missed":
                tint[k], line[k] = "tx", "ux"
            elif kind == "lcs":
                tint[k], line[k] = "tl", "ul"
            elif kind == "unmatched":
                line[k] = "uu"
    return list(zip(tint, line, strict=True))


# -- the WMT22 de-en report ------------------------------------------------------------------


def wmt_args(out: Path, *extra: str) -> list[str]:
    if not WMT.exists():
        pytest.skip("shared/data/wmt22-de-en is not present")
    args = ["--src", str(WMT / "src.txt"), "--ref", str(WMT / "ref.txt")]
    args += ["--ref", str(WMT / "ref2.txt")]
    for path in sorted(WMT.glob("sys.*.txt")):
        args += ["--hyp", str(path)]
    return [*args, "--out", str(out), "-q", *extra]


@dataclass
class Made:
    dom: Dom
    page: str
    session: ComparisonSession


@pytest.fixture(scope="module")
def wmt(tmp_path_factory: pytest.TempPathFactory) -> Made:
    out = tmp_path_factory.mktemp("report") / "wmt.html"
    code = main(
        wmt_args(
            out,
            "--metrics",
            "bleu,chrf,rouge",
            "--segments",
            SEGMENTS,
            "--baseline",
            BASELINE,
            "--paired-bs",
            "--paired-bs-n",
            "300",
            "--max-rows",
            str(MAX_ROWS),
        )
    )
    assert code == 0
    page = out.read_text(encoding="utf-8")
    # The same comparison, built with core directly.
    comparison = load_comparison(
        source=parse_spec(str(WMT / "src.txt")),
        references=[parse_spec(str(WMT / "ref.txt")), parse_spec(str(WMT / "ref2.txt"))],
        systems=[parse_spec(str(p)) for p in sorted(WMT.glob("sys.*.txt"))],
    )
    config = ScoringConfig(metrics=("bleu", "chrf", "rouge"))
    text = comparison.corpus_text()
    session = ComparisonSession(
        text,
        config=config,
        source=comparison.source.lines if comparison.source else None,
        comparison=comparison,
        table=score_corpus(text, config),
    )
    session.set_baseline(text.system_names.index(BASELINE))
    session.set_selection(Selection((SegmentRange(SEGMENTS),)))
    return Made(Dom(page), page, session)


def test_corpus_figures_are_cores_and_sacrebleus(wmt: Made) -> None:
    table = wmt.session.table
    rows = wmt.session.selected_rows()
    assert len(rows) == 1001
    headline = [c.key for c in table.columns if c.kind == "score" and c.headline]
    assert headline == ["bleu", "chrf", "rouge1_f", "rouge2_f", "rougeL_f"]
    for block, chosen in (("all", None), ("selected", rows)):
        summary = wmt.dom.one("table", class_="summary", data_rows=block)
        for s in range(len(table.systems)):
            corpus = table.corpus(s, chosen)
            for key in headline:
                cell = [
                    n
                    for n in summary.iter()
                    if n.attrs.get("data-system") == str(s) and n.attrs.get("data-column") == key
                ]
                assert len(cell) == 1
                assert value(cell[0]) == corpus.values[key], (block, s, key)
                assert cell[0].text() == f"{corpus.values[key]:.2f}"
    # And the selected rows' BLEU and chrF are sacreBLEU's on files holding only those rows.
    text = wmt.session.text
    refs = [[ref[i] for i in rows] for ref in text.references]
    summary = wmt.dom.one("table", class_="summary", data_rows="selected")
    for s, lines in enumerate(text.systems):
        hyps = [lines[i] for i in rows]
        cells = {
            n.attrs["data-column"]: value(n)
            for n in summary.iter()
            if n.attrs.get("data-system") == str(s) and "data-column" in n.attrs
        }
        assert cells["bleu"] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
        assert cells["chrf"] == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)
    signatures = [n.text() for n in wmt.dom.all("dd") if n.text().startswith("nrefs:2")]
    assert signatures == list(table.signatures().values())


def test_significance_is_cores_paired_bootstrap(wmt: Made) -> None:
    session = wmt.session
    table = session.table
    keys = [c.key for c in table.columns if c.kind == "score" and c.headline]
    expected = significance_by_column(
        table, keys, baseline=session.baseline, rows=session.selected_rows(), n_samples=300
    )
    tables = wmt.dom.all("table", class_="significance")
    assert [t.attrs["data-column"] for t in tables] == [t.column.key for t in expected if t.result]
    codes = {  # each test's signature line, by the column of its table
        box.find_all(lambda n: n.tag == "table")[0].attrs["data-column"]: box.find_all(
            lambda n: n.tag == "code"
        )[0].text()
        for box in wmt.dom.all("div", class_="sigtest")
        if box.find_all(lambda n: n.tag == "table")
    }
    for node, test in zip(tables, (t for t in expected if t.result), strict=True):
        result = test.result
        assert result is not None
        assert node.attrs["data-samples"] == "300" and node.attrs["data-seed"] == "12345"
        rows = node.find_all(lambda n: n.tag == "tr" and n.find_all(lambda c: c.tag == "td"))
        assert [r.find_all(lambda c: c.tag == "td")[0].text() for r in rows] == [
            line.name for line in result.systems
        ]
        assert rows[0].find_all(lambda c: c.tag == "td")[0].text() == BASELINE
        for row, line in zip(rows, result.systems, strict=True):
            fields = {
                n.attrs["data-field"]: value(n) for n in row.iter() if "data-field" in n.attrs
            }
            assert fields["score"] == line.score
            assert same(fields["mean"], math.nan if line.mean is None else line.mean)
            assert same(fields["ci"], math.nan if line.ci is None else line.ci)
            assert fields.get("p") == line.p_value
            # sacreBLEU's mark: "*" when p <= 0.05.
            starred = any(n.attrs.get("class") == "sig" for n in row.iter())
            assert starred == (line.p_value is not None and line.p_value <= 0.05)
        # The test's fields sit where sacreBLEU puts them: right after nrefs.
        code = codes[test.column.key]
        if test.column.key not in table.external:
            signature = table.signatures()[test.column.metric]
            assert code == signature_with(signature, result.signature_fields())
            assert code.startswith("nrefs:") and code.split("|")[1].startswith("bs:")


def test_charts_are_drawn_from_cores_numbers(wmt: Made) -> None:
    session = wmt.session
    table = session.table
    rows = session.selected_rows()
    primary = [c.key for c in table.columns if c.primary and c.kind == "score"]
    assert primary == ["bleu", "chrf", "rougeL_f"]
    for key in primary:
        for s in range(len(table.systems)):
            figure = wmt.dom.one("figure", data_column=key, data_system=str(s))
            bars = figure.find_all(lambda n: n.tag == "rect" and "data-count" in n.attrs)
            values = table.column(key, s)[rows]
            # A perfect sentence BLEU can be 100.00000000000004: counted in the last bin.
            within = np.clip(values[~np.isnan(values)], 0.0, 100.0)
            want = np.histogram(within, bins=np.asarray(HISTOGRAM_EDGES))[0]
            assert [int(b.attrs["data-count"]) for b in bars] == want.tolist()
            assert sum(want) == len(rows)
    base = session.baseline
    for s in range(len(table.systems)):
        if s == base:
            continue
        svg = wmt.dom.one("figure", data_column="bleu", data_x=str(base), data_y=str(s))
        chart = svg.find_all(lambda n: n.tag == "svg")[0]
        x, y = table.column("bleu", base)[rows], table.column("bleu", s)[rows]
        assert int(chart.attrs["data-points"]) == len(rows)
        assert int(chart.attrs["data-above"]) == int((y > x).sum())
        assert int(chart.attrs["data-below"]) == int((y < x).sum())
        dots = chart.find_all(lambda n: "dots" in n.classes)[0].attrs["d"]
        assert dots.count("h0") == len(rows)
    tokenizer = bleu_tokenizer("13a")
    buckets = length_buckets([len(tokenizer(line)) for line in session.text.references[0]])
    values = np.stack([table.column("bleu", s) for s in range(len(table.systems))])
    expected = bucket_means(buckets, values, rows=rows, n_boot=1000, seed=0)
    marks = wmt.dom.all("g", class_="bucket-mark")
    assert len(marks) == len(expected.labels) * len(table.systems)
    for mark in marks:
        cell = expected.cells[int(mark.attrs["data-bucket"])][int(mark.attrs["data-system"])]
        assert same(float(mark.attrs["data-mean"]), cell.mean)
        assert same(float(mark.attrs["data-low"]), cell.low)
        assert same(float(mark.attrs["data-high"]), cell.high)
        assert int(mark.attrs["data-count"]) == cell.count
    assert sum(c.count for row in expected.cells for c in row[:1]) == len(rows)


def test_rows_are_the_selection_capped_with_their_scores_and_highlights(wmt: Made) -> None:
    session = wmt.session
    table = session.table
    articles = wmt.dom.all("article")
    shown = [int(a.attrs["data-segment"]) - 1 for a in articles]
    assert shown == session.view_order()[:MAX_ROWS].tolist()
    warning = " ".join(n.text() for n in wmt.dom.all("p", class_="warn"))
    assert f"first {MAX_ROWS} of the 1,001 selected segments" in warning
    detailer = RowDetailer(session.config)
    text = session.text
    painted_kinds: set[str] = set()
    for article, i in zip(articles, shown, strict=True):
        detail = detailer.row(
            segment=i,
            source=session.source[i] if session.source else None,
            references=[r[i] for r in text.references],
            systems=[(n, lines[i]) for n, lines in zip(text.system_names, text.systems)],
        )
        layer = detail.layer("bleu")
        assert layer is not None
        for s in range(len(table.systems)):
            line = article.find_all(
                lambda n, s=s: "hyp" in n.classes and n.attrs.get("data-system") == str(s)
            )[0]
            div = line.find_all(lambda n: "text" in n.classes)[0]
            shown_text, looks = painted(div)
            assert shown_text == text.systems[s][i]
            ranges = layer.hypothesis(s)
            painted_kinds.update(k for _, _, k, _ in ranges)
            assert [(t, u) for t, u, _ in looks] == expected_looks(len(shown_text), ranges)
            for cell in line.find_all(lambda n: "data-column" in n.attrs):
                assert same(value(cell), table.value(cell.attrs["data-column"], s, i))
        for r in range(len(text.references)):
            line = article.find_all(
                lambda n, r=r: "ref" in n.classes and n.attrs.get("data-reference") == str(r)
            )[0]
            shown_text, looks = painted(line.find_all(lambda n: "text" in n.classes)[0])
            assert shown_text == text.references[r][i]
            ranges = layer.reference(r, None)
            painted_kinds.update(k for _, _, k, _ in ranges)
            assert [(t, u) for t, u, _ in looks] == expected_looks(len(shown_text), ranges)
    assert {"match", "unmatched", "missed"} <= painted_kinds


def test_the_page_points_at_nothing_outside_itself(wmt: Made) -> None:
    """No element that loads anything, no attribute holding a URL, no CSS url() or @import:
    what the browser test checks by watching the network, checked here in the markup."""
    loaders = {"script", "img", "link", "iframe", "object", "embed", "video", "audio", "source"}
    loaders |= {"image", "use", "feimage", "form", "base", "frame", "input"}
    assert not wmt.dom.root.find_all(lambda n: n.tag in loaders)
    for node in wmt.dom.root.iter():
        for name, text in node.attrs.items():
            assert not name.startswith("on"), name
            if name in ("href", "src", "xlink:href", "action", "poster", "data"):
                assert text.startswith("#"), (name, text)
            assert "://" not in text and not text.startswith("//"), (name, text)
    style = wmt.dom.one("style").text()
    assert "url(" not in style and "@import" not in style
    meta = wmt.dom.one("meta", http_equiv="Content-Security-Policy").attrs["content"]
    assert "default-src 'none'" in meta


# -- hostile text ----------------------------------------------------------------------------

# A name holds no slash and no "=" (NAME=PATH), so no closing tag; opening ones are enough.
HOSTILE_NAME = '<script>alert("n")<img src onerror>&amp;'
HOSTILE_LINES = [
    "<img src=x onerror=alert(1)> \"quoted\" & 'single'",
    "</div></article><script>alert(2)</script>",
    "a < b && c > d <!-- not a comment -->",
]


def test_hostile_names_and_lines_are_text(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    other = tmp_path / "other.txt"
    ref.write_text("\n".join([*HOSTILE_LINES[:3], "plain line"]) + "\n", encoding="utf-8")
    hyp.write_text("\n".join([*HOSTILE_LINES[:3], "plain line"]) + "\n", encoding="utf-8")
    other.write_text("\n".join(reversed(HOSTILE_LINES[:3])) + "\nplain\n", encoding="utf-8")
    out = tmp_path / "report.html"
    code = main(
        [
            "--ref", str(ref), "--hyp", f"{HOSTILE_NAME}={hyp}", "--hyp", str(other),
            "--title", "<b>title</b>", "--out", str(out), "-q", "--paired-bs",
        ]
    )  # fmt: skip
    assert code == 0
    page = out.read_text(encoding="utf-8")
    dom = Dom(page)
    assert not dom.all("script") and not dom.all("img") and not dom.all("b")
    titles = [n.text() for n in dom.all("title")]  # the page's, then the charts'
    assert titles[0] == "<b>title</b>"
    assert any(HOSTILE_NAME in t for t in titles[1:])
    names = [n.text() for n in dom.all("td", class_="name")]
    assert HOSTILE_NAME in names
    for s in (0, 1):
        divs = [
            line.find_all(lambda n: "text" in n.classes)[0]
            for line in dom.root.find_all(
                lambda n, s=s: "hyp" in n.classes and n.attrs.get("data-system") == str(s)
            )
        ]
        lines = (hyp if s == 0 else other).read_text(encoding="utf-8").splitlines()
        assert [painted(d)[0] for d in divs] == lines
    # A control character in a line (an ANSI escape) and a lone surrogate in a name (an
    # undecodable byte of the command line) cannot be written in HTML: each is shown as U+FFFD,
    # and the page is valid UTF-8.
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"a long enough line of text with one \x1b[31m escape in it\n")
    out2 = tmp_path / "bad.html"
    args = ["--ref", str(bad), "--hyp", f"name\udcff={bad}", "--out", str(out2), "-q"]
    assert main(args) == 0
    dom = Dom(out2.read_bytes().decode("utf-8"))
    div = dom.all("div", class_="line hyp")[0].find_all(lambda n: "text" in n.classes)[0]
    assert painted(div)[0] == "a long enough line of text with one \ufffd[31m escape in it"
    assert "name\ufffd" in dom.all("td", class_="name")[0].text()


# -- the session file ------------------------------------------------------------------------


def _sample_inputs() -> list[SessionInput]:
    return [
        SessionInput.from_file(SAMPLE / "src.de.txt", role="source", name="src"),
        SessionInput.from_file(SAMPLE / "ref.en.txt", role="reference", name="ref.en"),
        SessionInput.from_file(SAMPLE / "sys.fluent.txt", role="system", name="fluent"),
        SessionInput.from_file(SAMPLE / "sys.literal.txt", role="system", name="literal"),
        SessionInput.from_file(SAMPLE / "sys.rough.txt", role="system", name="rough"),
    ]


def _span(system: str, segment: int, word: str, category: str, severity: str, **kw) -> ErrorSpan:
    line = read_lines(SAMPLE / f"sys.{system}.txt")[segment]
    start = line.index(word)
    return ErrorSpan.create(
        system=system, segment=segment, line=line, start=start, end=start + len(word),
        category=category, severity=severity, annotator="ann", **kw,
    )  # fmt: skip


def _sample_session(tmp_path: Path, spans: list[ErrorSpan], scores: list[SegmentScore]) -> Path:
    config = ScoringConfig(metrics=("bleu", "rouge")).with_settings("bleu", lowercase=True)
    selection = Selection((SegmentRange("2-9"),), Sort("bleu", system=2, descending=True))
    path = tmp_path / "work.matchlight"
    with SessionStore.create(
        path,
        inputs=_sample_inputs(),
        settings=config.to_dict(),
        baseline=1,
        selection=selection.to_dict(),
    ) as store:
        store.add_many(spans, scores)
    return path


def test_a_session_gives_settings_selection_baseline_and_annotations(tmp_path: Path) -> None:
    fluent = read_lines(SAMPLE / "sys.fluent.txt")
    literal = read_lines(SAMPLE / "sys.literal.txt")
    rough = read_lines(SAMPLE / "sys.rough.txt")
    word = fluent[3].split()[1]
    spans = [
        _span("fluent", 3, word, "Accuracy/Mistranslation", "major", note="<i>why</i>"),
        _span("fluent", 3, fluent[3].split()[0], "Fluency/Grammar", "minor"),
        _span("literal", 4, literal[4].split()[0], "Style", "minor"),
        _span("rough", 5, rough[5].split()[0], "Accuracy", "critical"),
        _span("rough", 20, rough[20].split()[0], "Accuracy", "major"),
        _span("rough", 5, rough[5].split()[-1], "Style", "minor",
              status=Status.UNDECIDED),
    ]  # fmt: skip
    omission_line = fluent[6]
    spans.append(
        ErrorSpan.create(
            system="fluent",
            segment=6,
            line=omission_line,
            start=4,
            end=4,
            category="Accuracy/Omission",
            severity=Severity.MAJOR,
            annotator="ann",
        )
    )
    scores = [SegmentScore("fluent", 2, "ann", 80.0), SegmentScore("literal", 30, "ann", None)]
    path = _sample_session(tmp_path, spans, scores)
    out = tmp_path / "r.html"
    assert main(["--session", str(path), "--out", str(out), "-q", "--max-rows", "0"]) == 0
    dom = Dom(out.read_text(encoding="utf-8"))

    saved = read_session(path)
    assert saved.config is not None and saved.config.settings("bleu").lowercase is True
    # The session's inputs, settings, baseline and selection (rows 2-9 by rough's BLEU).
    comparison = load_comparison(
        source=parse_spec(str(SAMPLE / "src.de.txt")),
        references=[parse_spec(f"ref.en={SAMPLE / 'ref.en.txt'}")],
        systems=[
            parse_spec(f"{n}={SAMPLE / f'sys.{n}.txt'}") for n in ("fluent", "literal", "rough")
        ],
    )
    text = comparison.corpus_text()
    table = score_corpus(text, saved.config)
    session = ComparisonSession(text, config=saved.config, comparison=comparison, table=table)
    session.set_selection(saved.selection)
    assert [int(a.attrs["data-segment"]) - 1 for a in dom.all("article")] == (
        session.view_order().tolist()
    )
    assert len(dom.all("article")) == 8
    baseline_rows = dom.all("tr", class_="baseline")
    assert baseline_rows and all("literal" in r.text() for r in baseline_rows)
    summary = dom.one("table", class_="summary", data_rows="selected")
    cell = summary.find_all(
        lambda n: n.attrs.get("data-system") == "0" and n.attrs.get("data-column") == "bleu"
    )[0]
    assert value(cell) == table.corpus(0, session.selected_rows()).values["bleu"]

    # MQM: core's, over every annotated segment and over the selected ones.
    counted = [s for s in spans if s.status is Status.CONFIRMED]
    overall = system_mqm(counted, scores, weights=DEFAULT_WEIGHTS)
    mqm = {int(n.attrs["data-system"]): value(n) for n in dom.all("td", data_field="mqm")}
    assert mqm == {0: overall["fluent"], 1: overall["literal"], 2: overall["rough"]}
    assert overall["rough"] == pytest.approx((25 + 5) / 2)
    in_selection = system_mqm(
        counted,
        scores,
        segments={"fluent": {2, 3, 6}, "rough": {5}, "literal": {4}},
    )
    selected = {
        int(n.attrs["data-system"]): value(n) for n in dom.all("td", data_field="mqm-selected")
    }
    assert selected == {
        0: in_selection["fluent"],
        1: in_selection["literal"],
        2: in_selection["rough"],
    }
    esa = {int(n.attrs["data-system"]): value(n) for n in dom.all("td", data_field="segment-score")}
    assert esa[0] == 80.0 and math.isnan(esa[1]) and math.isnan(esa[2])

    # The spans are boxed on exactly their characters, worst severity, and listed.
    article = dom.one("article", data_segment="4")
    line = article.find_all(lambda n: "hyp" in n.classes and n.attrs.get("data-system") == "0")[0]
    shown, looks = painted(line.find_all(lambda n: "text" in n.classes)[0])
    assert shown == fluent[3]
    boxes = [box for _, _, box in looks]
    want: list[str | None] = [None] * len(shown)
    for span in spans[:2]:
        for k in range(span.start, span.end):
            want[k] = span.severity.value
    assert boxes == want
    listed = [li.text() for li in line.find_all(lambda n: n.tag == "li")]
    assert len(listed) == 2 and "<i>why</i>" in " ".join(listed)
    assert not line.find_all(lambda n: n.tag == "i")
    omission = dom.one("article", data_segment="7").find_all(lambda n: "omit" in n.classes)
    assert len(omission) == 1 and "sev-major" in omission[0].classes
    undecided = dom.one("article", data_segment="6").find_all(lambda n: "undecided" in n.classes)
    assert len(undecided) == 1


def test_spans_follow_changed_lines_or_are_listed_as_unplaced(tmp_path: Path) -> None:
    lines = read_lines(SAMPLE / "sys.fluent.txt")
    moved_word, gone_word = lines[3].split()[2], lines[4].split()[0]
    spans = [
        _span("fluent", 3, moved_word, "Accuracy", "major"),
        _span("fluent", 4, gone_word, "Accuracy", "minor"),
    ]
    path = _sample_session(tmp_path, spans, [])
    # The system file changes: a prefix shifts segment 4's words, segment 5's word is gone.
    changed = list(lines)
    changed[3] = "So, " + lines[3]
    changed[4] = lines[4].replace(gone_word, "\u2026")
    copy = tmp_path / "fluent.txt"
    copy.write_text("\n".join(changed) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    args = ["--session", str(path), "--ref", f"ref.en={SAMPLE / 'ref.en.txt'}"]
    args += ["--hyp", f"fluent={copy}", "--hyp", f"literal={SAMPLE / 'sys.literal.txt'}"]
    args += ["--hyp", f"rough={SAMPLE / 'sys.rough.txt'}", "--segments", "4-5", "--out", str(out)]
    assert main([*args, "-q"]) == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    line = dom.one("article", data_segment="4").find_all(
        lambda n: "hyp" in n.classes and n.attrs.get("data-system") == "0"
    )[0]
    shown, looks = painted(line.find_all(lambda n: "text" in n.classes)[0])
    start = changed[3].index(moved_word, 4)
    assert [box for _, _, box in looks] == [
        "major" if start <= k < start + len(moved_word) else None for k in range(len(shown))
    ]
    warnings = " ".join(n.text() for n in dom.all("p", class_="warn"))
    assert "1 error spans could not be found" in warnings
    assert system_mqm([spans[0]], []) == {"fluent": 5.0}
    assert value(dom.all("td", data_field="mqm")[0]) == 5.0


# -- the command line and the app's entry point ----------------------------------------------


def test_the_report_refuses_to_replace_an_input(tmp_path: Path, capsys) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    before = ref.read_bytes()
    assert main(["--ref", str(ref), "--hyp", str(ref), "--out", str(ref)]) == 2
    assert ref.read_bytes() == before
    assert str(ref) in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--highlight", "lcs"], "--highlight 'lcs'"),
        (["--chart-column", "hyp_len"], "--chart-column 'hyp_len'"),
        (["--segments", "5-2"], "runs backwards"),
        (["--smooth-value", "-1"], "--smooth-value"),
    ],
)
def test_usage_errors_name_the_option(tmp_path: Path, capsys, extra, message) -> None:
    args = ["--ref", str(SAMPLE / "ref.en.txt"), "--hyp", str(SAMPLE / "sys.rough.txt")]
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--metrics", "bleu", "--out", str(tmp_path / "r.html"), *extra])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_inputs_are_needed_without_a_session(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "r.html")])
    assert "--ref, --hyp (or --session)" in capsys.readouterr().err


def test_export_report_is_the_apps_entry_point(tmp_path: Path) -> None:
    """What the app calls: a session it holds, tests it already ran, a row cap."""
    comparison = load_comparison(
        source=None,
        references=[parse_spec(str(SAMPLE / "ref.en.txt"))],
        systems=[parse_spec(str(p)) for p in sorted(SAMPLE.glob("sys.*.txt"))],
    )
    text = comparison.corpus_text()
    config = ScoringConfig(metrics=("bleu", "chrf"))
    session = ComparisonSession(
        text, config=config, comparison=comparison, table=score_corpus(text, config)
    )
    session.set_selection(Selection((SegmentRange("1-10"),)))
    tests = significance_by_column(
        session.table, ["bleu", "chrf"], baseline=0, rows=session.selected_rows(), n_samples=50
    )
    out = export_report(
        session,
        tmp_path / "app.html",
        options=ReportOptions(max_rows=3, highlight="chrf"),
        significance=tests,
    )
    dom = Dom(out.read_text(encoding="utf-8"))
    assert len(dom.all("article")) == 3
    assert [t.attrs["data-samples"] for t in dom.all("table", class_="significance")] == ["50"] * 2
    legend = dom.one("p", class_="legend").text()
    assert legend.startswith("chrF") and "1-char" in legend
    with pytest.raises(OSError):
        export_report(session, SAMPLE / "ref.en.txt")
    with pytest.raises(ValueError, match="unknown highlight mode 'lcs'"):
        render_report(session, options=ReportOptions(highlight="lcs"))


def test_the_console_script_dispatches_report(tmp_path: Path) -> None:
    from matchlight.gui.shell.launcher import main as launcher

    out = tmp_path / "r.html"
    args = ["report", "--ref", str(SAMPLE / "ref.en.txt"), "--hyp", str(SAMPLE / "sys.rough.txt")]
    assert launcher([*args, "--out", str(out), "-q"]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_tints_are_the_apps() -> None:
    """The report paints what the app paints in its light theme (both take core.style.palette's
    colours; tests/core/style/test_style_palette.py and
    tests/gui/highlight/test_highlight_palette.py check each side)."""
    from PySide6.QtGui import QColor

    from matchlight.core.report import palette
    from matchlight.gui.highlight import palette as app

    for max_level in range(1, 10):
        for level in range(1, max_level + 1):
            tint = palette.match_tint(level, max_level)
            assert tint == app.order_tint(level, False, max_level).name()
            assert palette.tint_text(tint) == app.tint_text(QColor(tint)).name()
    missed = app.highlight_format("missed", 0, False)
    lcs = app.highlight_format("lcs", 0, False)
    unmatched = app.highlight_format("unmatched", 0, False)
    assert missed.background().color().name() == palette.MISSED_TINT
    assert missed.underlineColor().name() == palette.MISSED_LINE
    assert missed.foreground().color().name() == palette.TINT_TEXT
    assert lcs.background().color().name() == palette.LCS_TINT
    assert lcs.underlineColor().name() == palette.LCS_LINE
    assert unmatched.underlineColor().name() == palette.UNMATCHED_LINE
    from matchlight.gui.charts.summarymodel import SYSTEM_COLOURS

    assert palette.SYSTEM_COLOURS == SYSTEM_COLOURS


def test_the_apps_session_format_is_read(tmp_path: Path) -> None:
    """The app stores its settings as {config, specs, reference_names}, the baseline by name and
    the highlight mode in the layout; the inputs may be columns of a TSV file."""
    refs, hyps = read_lines(SAMPLE / "ref.en.txt"), read_lines(SAMPLE / "sys.literal.txt")
    table_file = tmp_path / "pairs.tsv"
    rows = [f"{r.replace(chr(9), ' ')}\t{h.replace(chr(9), ' ')}" for r, h in zip(refs, hyps)]
    table_file.write_text("ref\thyp\n" + "\n".join(rows) + "\n", encoding="utf-8")
    specs = {
        "source": None,
        "references": [{"path": str(table_file), "name": None, "column": "ref", "fmt": None}],
        "systems": [
            {"path": str(table_file), "name": "literal", "column": "hyp", "fmt": None},
            {"path": str(SAMPLE / "sys.rough.txt"), "name": "rough", "column": None, "fmt": None},
        ],
    }
    config = ScoringConfig(metrics=("bleu", "rouge"))
    settings = {"config": config.to_dict(), "specs": specs, "reference_names": ["Human"]}
    path = tmp_path / "app.matchlight"
    inputs = [
        SessionInput.from_file(table_file, role="reference", name="ref"),
        SessionInput.from_file(table_file, role="system", name="literal"),
        SessionInput.from_file(SAMPLE / "sys.rough.txt", role="system", name="rough"),
    ]
    selection = Selection((SegmentRange("3-5"),))
    SessionStore.create(
        path,
        inputs=inputs,
        settings=settings,
        baseline="rough",
        selection=selection.to_dict(),
        layout={"highlight_mode": "lcs"},
    ).close()
    out = tmp_path / "r.html"
    assert main(["--session", str(path), "--out", str(out), "-q"]) == 0
    dom = Dom(out.read_text(encoding="utf-8"))
    assert [a.attrs["data-segment"] for a in dom.all("article")] == ["3", "4", "5"]
    assert dom.one("p", class_="legend").text().startswith("ROUGE-L LCS")
    roles = [n.text() for n in dom.all("span", class_="role")]
    assert roles.count("Human") == 3
    baseline = dom.one("table", class_="summary", data_rows="all").find_all(
        lambda n: "baseline" in n.classes
    )
    assert [r.attrs["data-system"] for r in baseline] == ["1"]
    line = dom.one("article", data_segment="4").find_all(lambda n: "hyp" in n.classes)[0]
    assert painted(line.find_all(lambda n: "text" in n.classes)[0])[0] == hyps[3]
