"""How a reproducibility signature is written: ``name:value`` fields joined by ``|``.

Every metric's signature (``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``), and
the fields a significance test adds to one, are written by :func:`format_signature`, in
sacreBLEU's long form or, for the metrics sacreBLEU has, its short form (``#:1|c:mixed|...``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

__all__ = ["SHORT_NAMES", "format_signature"]

#: Field -> short name, as sacreBLEU's Signature, BLEUSignature and CHRFSignature abbreviate
#: them (``ngram`` is Matchlight's: sacreBLEU 2.6.0 does not record BLEU's maximum order).
SHORT_NAMES: Final[dict[str, str]] = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "ngram": "n",
    "nc": "nc",
    "nw": "nw",
    "space": "s",
    "version": "v",
}


def format_signature(fields: Iterable[tuple[str, object]], *, short: bool = False) -> str:
    """``fields`` as ``name:value|name:value``; ``short`` uses :data:`SHORT_NAMES` (a field
    without one keeps its name)."""
    return "|".join(
        f"{SHORT_NAMES.get(name, name) if short else name}:{value}" for name, value in fields
    )
