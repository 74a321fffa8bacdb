"""``matchlight score``'s language check: a warning per system with outputs in another language
than the references or copying the source, and the counts in ``--json``; the CSV is unchanged.

WMT22 en-zh: HuaweiTSC's segment 884 and Online-B's 1239 are the English source; the source
given as a system copies nearly every row.
"""

from __future__ import annotations

import json
from pathlib import Path

from matchlight.core.analysis.language import language_flags
from matchlight.core.cli.score import main
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
SYSTEMS = ("HuaweiTSC", "Online-Y")


def args(tmp_path: Path, *extra: str) -> list[str]:
    out = ["--src", str(EN_ZH / "src.txt"), "--ref", str(EN_ZH / "ref.txt")]
    for name in SYSTEMS:
        out += ["--hyp", str(EN_ZH / f"sys.{name}.txt")]
    out += ["--hyp", str(EN_ZH / "src.txt"), "--metrics", "bleu", "--tokenize", "zh"]
    return [*out, "--csv", str(tmp_path / "rows.csv"), *extra]


@needs(EN_ZH)
def test_score_warns_and_writes_the_counts(tmp_path: Path, capsys) -> None:
    assert main(args(tmp_path, "--json", str(tmp_path / "c.json"))) == 0
    err = capsys.readouterr().err
    source = read_lines(EN_ZH / "src.txt")
    text = CorpusText(
        (tuple(read_lines(EN_ZH / "ref.txt")),),
        (*(tuple(read_lines(EN_ZH / f"sys.{n}.txt")) for n in SYSTEMS), tuple(source)),
        (*SYSTEMS, "src"),
    )
    flags = language_flags(text, source)
    assert flags is not None
    wrong, copies = flags.counts()[2]
    assert copies > 0.95 * len(source)
    warned = [line for line in err.splitlines() if "neural metrics" in line]
    assert warned == [
        "matchlight: warning: HuaweiTSC: 1 of 2037 outputs in another language than the "
        "references (zh) and 1 of 2037 copying the source; neural metrics are known to score "
        "such output highly",
        f"matchlight: warning: src: {wrong} of 2037 outputs in another language than the "
        f"references (zh) and {copies} of 2037 copying the source; neural metrics are known to "
        "score such output highly",
    ]
    payload = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert payload["reference_language"] == "zh"
    counts = {k: (v["wrong_language"], v["copies_source"]) for k, v in payload["systems"].items()}
    assert counts == {"HuaweiTSC": (1, 1), "Online-Y": (0, 0), "src": (wrong, copies)}
    with_check = (tmp_path / "rows.csv").read_bytes()

    # Without the check: no warning, no key, and the same CSV.
    assert main(args(tmp_path, "--json", str(tmp_path / "n.json"), "--no-language-check")) == 0
    assert "neural metrics" not in capsys.readouterr().err
    payload = json.loads((tmp_path / "n.json").read_text(encoding="utf-8"))
    assert "reference_language" not in payload
    assert "wrong_language" not in payload["systems"]["src"]
    assert (tmp_path / "rows.csv").read_bytes() == with_check


@needs(EN_ZH)
def test_the_counts_follow_segments_and_quiet_silences_them(tmp_path: Path, capsys) -> None:
    assert main(args(tmp_path, "--segments", "1-100,1239", "--json", str(tmp_path / "s.json"))) == 0
    err = capsys.readouterr().err
    assert "HuaweiTSC" not in err  # its untranslated segment 884 is not among them
    payload = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert payload["systems"]["HuaweiTSC"]["wrong_language"] == 0
    assert main(args(tmp_path, "-q")) == 0
    assert capsys.readouterr().err == ""
