"""Human judgements per segment and system made from error spans: MQM from a WMT MQM TSV.

The spans are read by :func:`core.annotation.wmtmqm.import_mqm_tsv` and scored by
:mod:`core.annotation.mqm` (its weights and its rule for a segment's score); nothing here
weighs an error. A (system, segment) has a score when the file rates it (an error row or a
``No-error`` row); the others are NaN (not judged). The file's ``seg_id`` is the 1-based line
number unless a segment-id file maps it: line i of that file holds the ``seg_id`` of segment i
(the WMT TED set's ``segid.txt``). This lives above :mod:`core.io` because it reads through the
annotation layer; :mod:`core.io.human` reads plain score files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from matchlight.core.annotation.model import Status
from matchlight.core.annotation.mqm import annotated_segments, segment_mqm
from matchlight.core.annotation.wmtmqm import import_mqm_tsv, read_segment_ids
from matchlight.core.io.human import HumanJudgements, human_column
from matchlight.core.io.inputs import InputError

__all__ = ["human_from_spans"]

#: Imported spans are pre-annotations nobody has ruled on yet: for human judgements from a
#: file, every span that was not rejected counts.
_COUNTED = (Status.CONFIRMED, Status.UNDECIDED)


def human_from_spans(
    path: str,
    *,
    systems: Sequence[str],
    n_segments: int,
    segment_ids: str | None = None,
    system_names: Mapping[str, str] | None = None,
    name: str = "MQM",
) -> HumanJudgements:
    """MQM per segment and system for the comparison's ``systems`` from the WMT MQM TSV
    ``path``: a penalty (lower is better), as :mod:`core.annotation.mqm` scores the spans.

    ``segment_ids`` is the file mapping the TSV's ``seg_id`` to lines (None: ``seg_id`` is the
    1-based line number); ``system_names`` renames the file's systems to the comparison's
    (``{"ref": "ref-A"}``). Systems of the file not in the comparison are left out (with a
    warning), and so are rows whose ``seg_id`` is not one of the comparison's segments.
    """
    ids = read_segment_ids(segment_ids) if segment_ids is not None else None
    imported = import_mqm_tsv(path, system_names=system_names, segment_ids=ids)
    penalties = segment_mqm(imported.spans, statuses=_COUNTED)
    rated = annotated_segments(imported.spans, imported.scores, statuses=_COUNTED)
    values = np.full((len(systems), n_segments), np.nan)
    where = {s: i for i, s in enumerate(systems)}
    warnings = list(imported.warnings)
    unknown = sorted(set(rated) - set(where))
    if unknown:
        warnings.append(
            f"{path}: ignored {len(unknown)} systems not in the comparison: "
            + ", ".join(repr(u) for u in unknown[:5])
            + (" ..." if len(unknown) > 5 else "")
        )
    outside = 0
    for system, segments in rated.items():
        row = where.get(system)
        if row is None:
            continue
        for line in segments:
            if not 0 <= line < n_segments:
                outside += 1
                continue
            values[row, line] = penalties.get((system, line), 0.0)
    if outside:
        warnings.append(
            f"{path}: ignored {outside} rated segments whose seg_id is beyond the comparison"
        )
    if np.isnan(values).all():
        raise InputError(
            f"rates no segment of the comparison's systems ({', '.join(systems)})", path
        )
    return HumanJudgements(
        name,
        "segment",
        tuple(systems),
        values,
        human_column(name, values, "lower"),
        (path,),
        tuple(warnings),
    )
