"""Agreement between two annotators' sessions of the same comparison."""

from __future__ import annotations

from matchlight.core.annotation.agreement import AgreementReport, agreement
from matchlight.core.session.store import SessionError, SessionStore

__all__ = ["session_agreement"]


def session_agreement(
    first: SessionStore,
    second: SessionStore,
) -> AgreementReport:
    """Span agreement and MQM correlations of two sessions (first = candidate, second = reference).

    The sessions must annotate the same system and reference files (same names and content
    hashes); otherwise offsets would point into different texts and SessionError is raised. The
    MQM weights are the first session's.
    """

    def annotated(store: SessionStore) -> dict[str, str]:
        return {i.name: i.sha256 for i in store.inputs() if i.role in ("system", "reference")}

    mine, theirs = annotated(first), annotated(second)
    if mine != theirs:
        differ = sorted(
            name for name in set(mine) | set(theirs) if mine.get(name) != theirs.get(name)
        )
        raise SessionError(
            "the two sessions do not annotate the same files (differing: "
            + ", ".join(differ)
            + ")",
            second.path,
        )
    return agreement(
        first.spans(),
        second.spans(),
        first.segment_scores(),
        second.segment_scores(),
        weights=first.state().weights,
    )
