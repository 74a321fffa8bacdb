"""matchlight.core.analysis.references on the shared real data: scores per reference from
sacreBLEU, and the reference audit, which must find wmt22-en-zh's ref2 = Online-B on 373 lines
and nothing anywhere else.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.analysis.references import (
    audit_references,
    identical_counts_in_steps,
    leak_messages,
    normalise_whitespace,
    reference_leaks,
    score_by_reference,
)
from matchlight.core.metrics.bleu import sacrebleu_scores
from tests.conftest import DATASETS, SHARED_DATA, Dataset, dataset_params
from tests.kit import needs
from tests.refs import sacrebleu_statistics

DE_EN = SHARED_DATA / "wmt22-de-en"
EN_ZH = SHARED_DATA / "wmt22-en-zh"


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


def dataset(name: str) -> Dataset:
    return next(d for d in DATASETS if d.name == name)


def names(d: Dataset) -> tuple[list[str], list[str]]:
    return [p.stem for p in d.refs], [p.stem.removeprefix("sys.") for p in d.systems]


def tokenizer_for(d: Dataset) -> str:
    return "zh" if d.name.endswith("zh") else "13a"


@cache
def sentence_bleu(name: str) -> np.ndarray:
    """sacreBLEU sentence BLEU of every line against each reference alone, ``(R, S, n)``."""
    d = dataset(name)
    refs = [d.read(p) for p in d.refs]
    out = []
    for ref in refs:
        # sacreBLEU's reference cache: the reference's n-grams extracted once for all systems.
        bleu = BLEU(tokenize=tokenizer_for(d), references=[ref])
        per_system = []
        for path in d.systems:
            stats = np.array(sacrebleu_statistics(bleu, d.read(path), None), np.int64)
            per_system.append(
                sacrebleu_scores(
                    stats[:, 0],
                    stats[:, 1],
                    stats[:, 2:6],
                    stats[:, 6:10],
                    smooth_method="exp",
                    smooth_value=None,
                    effective_order=True,
                )
            )
        out.append(per_system)
    return np.array(out)


def identical_lines(a: list[str], b: list[str]) -> int:
    return sum(" ".join(x.split()) == " ".join(y.split()) for x, y in zip(a, b))


# -- scores per reference ---------------------------------------------------------------------


@needs(EN_ZH)
def test_bleu_per_reference_and_with_both() -> None:
    d = dataset("wmt22-de-en")
    rows = slice(0, 800)  # enough to show it; sacreBLEU takes a while per call
    refs = [d.read(p)[rows] for p in d.refs]
    hyps = [d.read(p)[rows] for p in d.systems]
    bleu = BLEU(tokenize="13a")
    sacre: dict[tuple[int, ...], list[float]] = {}

    def score_with(subset: tuple[int, ...]) -> list[float]:
        sacre[subset] = [bleu.corpus_score(h, [refs[r] for r in subset]).score for h in hyps]
        return sacre[subset]

    ref_names, sys_names = names(d)
    result = score_by_reference(systems=sys_names, references=ref_names, score_with=score_with)
    assert list(sacre) == [(0,), (1,), (0, 1)]
    assert result.references == ("ref", "ref2")
    assert result.systems == tuple(sys_names)
    assert result.single[:, 0].tolist() == sacre[(0,)]
    assert result.single[:, 1].tolist() == sacre[(1,)]
    assert result.combined.tolist() == sacre[(0, 1)]
    # Two human references raise every system's BLEU well above either one alone.
    assert np.all(result.combined > result.single.max(axis=1) + 5)


def test_score_with_must_score_every_system() -> None:
    with pytest.raises(ValueError, match="2 scores"):
        score_by_reference(systems=["a", "b"], references=["r"], score_with=lambda s: [1.0])


# -- the audit --------------------------------------------------------------------------------


@needs(EN_ZH)
def test_reference_made_from_online_b_is_found() -> None:
    d = dataset("wmt22-en-zh")
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    ref_names, sys_names = names(d)
    audit = audit_references(
        references=refs,
        systems=systems,
        reference_names=ref_names,
        system_names=sys_names,
        similarity=sentence_bleu(d.name),
    )
    (flag,) = audit.flagged
    assert (flag.reference, flag.system) == ("ref2", "Online-B")
    # The data's README: ref2 equals Online-B on 373 of 2,037 lines.
    assert flag.identical == identical_lines(refs[1], systems[sys_names.index("Online-B")]) == 373
    assert flag.n_rows == 2037
    others = [
        identical_lines(refs[1], s) for i, s in enumerate(systems) if sys_names[i] != "Online-B"
    ]
    assert flag.identical_baseline == np.median(others)
    assert "373 of 2037 lines identical to Online-B" in flag.reason
    sim = sentence_bleu(d.name)[1, sys_names.index("Online-B")]
    assert flag.near == int((sim >= 90).sum())
    assert flag.mean_similarity == pytest.approx(sim.mean())
    for pair in audit.pairs:
        assert pair.identical == identical_lines(
            refs[ref_names.index(pair.reference)], systems[sys_names.index(pair.system)]
        )


@pytest.mark.parametrize("d", dataset_params())
def test_no_false_alarm_on_identical_lines(d: Dataset) -> None:
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    ref_names, sys_names = names(d)
    audit = audit_references(
        references=refs, systems=systems, reference_names=ref_names, system_names=sys_names
    )
    flagged = {(p.reference, p.system) for p in audit.flagged}
    assert flagged == ({("ref2", "Online-B")} if d.name == "wmt22-en-zh" else set())


@pytest.mark.slow
@pytest.mark.parametrize("d", dataset_params())
def test_no_false_alarm_with_sentence_similarity(d: Dataset) -> None:
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    ref_names, sys_names = names(d)
    audit = audit_references(
        references=refs,
        systems=systems,
        reference_names=ref_names,
        system_names=sys_names,
        similarity=sentence_bleu(d.name),
    )
    flagged = {(p.reference, p.system) for p in audit.flagged}
    assert flagged == ({("ref2", "Online-B")} if d.name == "wmt22-en-zh" else set())


@needs(EN_ZH)
def test_an_injected_leak_is_found_and_only_there() -> None:
    """ref2 of wmt22-de-en made from LT22's output on 12% of the lines (whitespace changed)."""
    d = dataset("wmt22-de-en")
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    ref_names, sys_names = names(d)
    leaky = sys_names.index("LT22")
    copied = np.arange(len(refs[1])) % 8 == 3
    refs[1] = [
        "  " + systems[leaky][i].replace(" ", "  ") if copied[i] else line
        for i, line in enumerate(refs[1])
    ]
    audit = audit_references(
        references=refs, systems=systems, reference_names=ref_names, system_names=sys_names
    )
    (flag,) = audit.flagged
    assert (flag.reference, flag.system) == ("ref2", "LT22")
    assert flag.identical == identical_lines(refs[1], systems[leaky])
    assert flag.identical >= copied.sum()
    # On the other rows alone the leak is gone.
    clean = audit_references(
        references=refs,
        systems=systems,
        reference_names=ref_names,
        system_names=sys_names,
        rows=~copied,
    )
    assert clean.flagged == ()


def test_one_system_has_nothing_to_compare_with() -> None:
    audit = audit_references(
        references=[["a b", "c"]],
        systems=[["a  b", "c"]],
        reference_names=["ref"],
        system_names=["only"],
    )
    (pair,) = audit.pairs
    assert pair.identical == 2 and np.isnan(pair.identical_baseline) and not pair.flagged


def test_whitespace_normalisation() -> None:
    assert normalise_whitespace("  a \t b\u3000c \n") == "a b c"


def test_identical_lines_counted_in_steps_give_the_same_audit() -> None:
    """The app counts identical lines a step at a time (between turns of its event loop); the
    counts, and the audit made from them, are those of one pass over every line."""
    d = dataset("wmt22-en-zh")
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    ref_names, sys_names = names(d)
    steps = identical_counts_in_steps(refs, systems, step=300)
    done: list[int] = []
    while True:
        try:
            done.append(next(steps))
        except StopIteration as end:
            counts = end.value
            break
    n = len(refs[0])
    assert done == [*range(300, n, 300), n]
    expected = [[identical_lines(r, s) for s in systems] for r in refs]
    assert counts.tolist() == expected
    assert counts[1, sys_names.index("Online-B")] == 373
    whole = audit_references(
        references=refs, systems=systems, reference_names=ref_names, system_names=sys_names
    )
    stepped = audit_references(
        references=refs,
        systems=systems,
        reference_names=ref_names,
        system_names=sys_names,
        identical=counts,
    )
    assert stepped == whole
    with pytest.raises(ValueError, match="identical must have shape"):
        audit_references(
            references=refs,
            systems=systems,
            reference_names=ref_names,
            system_names=sys_names,
            identical=counts[:, :1],
        )


@needs(EN_ZH)
def test_leak_in_words_is_the_audits_finding() -> None:
    """What the summary, the commands and the report warn with: one sentence per flagged
    pair, from the identical-line audit, and nothing on a clean subset or a clean dataset."""
    d = dataset("wmt22-en-zh")
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    ref_names, sys_names = names(d)
    found = reference_leaks(
        references=refs, systems=systems, reference_names=ref_names, system_names=sys_names
    )
    others = [
        identical_lines(refs[1], s) for i, s in enumerate(systems) if sys_names[i] != "Online-B"
    ]
    assert found == (
        "ref2 looks made from Online-B's output: 373 of 2037 lines identical to Online-B, "
        f"other systems {np.median(others):g} (median). Scores against ref2 favour Online-B.",
    )
    audit = audit_references(
        references=refs, systems=systems, reference_names=ref_names, system_names=sys_names
    )
    assert leak_messages(audit) == found
    # The rows where ref2 is not Online-B's line: nothing to say.
    online_b = systems[sys_names.index("Online-B")]
    differ = [normalise_whitespace(r) != normalise_whitespace(o) for r, o in zip(refs[1], online_b)]
    assert (
        reference_leaks(
            references=refs,
            systems=systems,
            reference_names=ref_names,
            system_names=sys_names,
            rows=np.flatnonzero(differ),
        )
        == ()
    )
    de_en = dataset("wmt22-de-en")
    assert (
        reference_leaks(
            references=[de_en.read(p) for p in de_en.refs],
            systems=[de_en.read(p) for p in de_en.systems],
            reference_names=names(de_en)[0],
            system_names=names(de_en)[1],
        )
        == ()
    )
    # One system: nothing to compare it with, nothing to say.
    assert (
        reference_leaks(
            references=[refs[1]], systems=[online_b], reference_names=["ref2"], system_names=["B"]
        )
        == ()
    )
