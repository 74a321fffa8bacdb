"""Static SVG charts for the HTML report: histograms, a score scatter, bucket means with CIs.

Each function returns one ``<svg>`` element as a string, meant to be inlined in an HTML page (no
script, no external file, no font file: text uses the page's font). Every label is escaped, so
system and column names can be any user text. The values drawn are also written, unrounded, as
``data-`` attributes on the marks, so a test (or a curious reader) can check the chart against
the numbers it was drawn from.

A scatter of thousands of points is one ``<path>`` of zero-length segments with round caps
(each a dot): about 14 bytes a point instead of 40 for a ``<circle>`` each.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["bucket_svg", "histogram_svg", "nice_ceiling", "number_attr", "scatter_svg"]

FloatArray = npt.NDArray[np.float64]

_AXIS = "#666666"
_GRID = "#e3e3e3"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def number_attr(value: float) -> str:
    """A number as written in a ``data-`` attribute: full precision, ``nan`` for NaN."""
    return "nan" if math.isnan(value) else repr(float(value))


def _f(value: float) -> str:
    """A coordinate with one decimal (enough on screen, and short)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``value`` (> 0)."""
    if not value > 0 or not math.isfinite(value):
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * power >= value * (1 - 1e-12):
            return step * power
    return 10 * power  # pragma: no cover - the loop always returns


def _open(width: int, height: int, title: str, css_class: str, extra: str = "") -> str:
    return (
        f'<svg class="chart {css_class}" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}"{extra}>'
        f"<title>{_esc(title)}</title>"
    )


def histogram_svg(
    counts: Sequence[int],
    edges: Sequence[float],
    *,
    title: str,
    colour: str,
    y_max: int,
    width: int = 220,
    height: int = 130,
) -> str:
    """One system's histogram: a bar per bin, all charts of a row sharing ``y_max``.

    Each bar carries ``data-count``, ``data-low`` and ``data-high`` (the bin's edges).
    """
    left, right, top, bottom = 30, 6, 18, 18
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max(int(y_max), 1)
    lo, hi = float(edges[0]), float(edges[-1])
    span = hi - lo or 1.0
    parts = [_open(width, height, title, "histogram", f' data-bins="{len(counts)}"')]
    parts.append(f'<text x="{left}" y="12" class="chart-title">{_esc(title)}</text>')
    base = top + plot_h
    parts.append(
        f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="{_AXIS}"/>'
    )
    for k, count in enumerate(counts):
        x0 = left + (float(edges[k]) - lo) / span * plot_w
        x1 = left + (float(edges[k + 1]) - lo) / span * plot_w
        h = count / top_value * plot_h
        parts.append(
            f'<rect x="{_f(x0 + 0.5)}" y="{_f(base - h)}" width="{_f(max(x1 - x0 - 1, 0.5))}" '
            f'height="{_f(h)}" fill="{colour}" data-count="{int(count)}" '
            f'data-low="{number_attr(float(edges[k]))}" '
            f'data-high="{number_attr(float(edges[k + 1]))}"/>'
        )
    parts.append(f'<text x="{left - 3}" y="{top + 4}" class="tick" text-anchor="end">')
    parts.append(f"{top_value}</text>")
    parts.append(f'<text x="{left - 3}" y="{base}" class="tick" text-anchor="end">0</text>')
    for value, anchor in ((lo, "start"), ((lo + hi) / 2, "middle"), (hi, "end")):
        x = left + (value - lo) / span * plot_w
        parts.append(
            f'<text x="{_f(x)}" y="{height - 4}" class="tick" text-anchor="{anchor}">'
            f"{value:g}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def scatter_svg(
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    *,
    title: str,
    x_label: str,
    y_label: str,
    colour: str,
    low: float = 0.0,
    high: float = 100.0,
    size: int = 260,
) -> str:
    """``y`` against ``x`` (one dot per row with both values), with the diagonal.

    The ``<svg>`` carries ``data-points`` (dots drawn), ``data-above`` (rows where ``y > x``),
    ``data-below`` and ``data-equal``; the title line says the same in words.
    """
    xs = np.asarray(x, np.float64)
    ys = np.asarray(y, np.float64)
    keep = ~(np.isnan(xs) | np.isnan(ys))
    xs, ys = xs[keep], ys[keep]
    above = int((ys > xs).sum())
    below = int((ys < xs).sum())
    equal = int((ys == xs).sum())
    left, bottom, top, right = 34, 30, 8, 8
    plot = size - left - bottom
    width, height = left + plot + right, top + plot + bottom
    span = (high - low) or 1.0

    def px(v: FloatArray) -> FloatArray:
        return left + (np.clip(v, low, high) - low) / span * plot

    def py(v: FloatArray) -> FloatArray:
        return top + plot - (np.clip(v, low, high) - low) / span * plot

    data = (
        f' data-points="{len(xs)}" data-above="{above}" data-below="{below}" data-equal="{equal}"'
    )
    parts = [_open(width, height, title, "scatter", data)]
    parts.append(
        f'<rect x="{left}" y="{top}" width="{plot}" height="{plot}" fill="none" stroke="{_AXIS}"/>'
    )
    for frac in (0.25, 0.5, 0.75):
        g = left + frac * plot
        h = top + plot - frac * plot
        parts.append(
            f'<path d="M{_f(g)} {top}V{top + plot}M{left} {_f(h)}H{left + plot}" stroke="{_GRID}"/>'
        )
    parts.append(
        f'<line x1="{left}" y1="{top + plot}" x2="{left + plot}" y2="{top}" '
        f'stroke="{_AXIS}" stroke-dasharray="4 3"/>'
    )
    if len(xs):
        cx, cy = px(xs), py(ys)
        dots = "".join(f"M{_f(a)} {_f(b)}h0" for a, b in zip(cx.tolist(), cy.tolist()))
        parts.append(
            f'<path class="dots" d="{dots}" stroke="{colour}" stroke-opacity="0.45" '
            'stroke-width="3.2" stroke-linecap="round" fill="none"/>'
        )
    for value, anchor in ((low, "start"), ((low + high) / 2, "middle"), (high, "end")):
        gx = left + (value - low) / span * plot
        parts.append(
            f'<text x="{_f(gx)}" y="{top + plot + 12}" class="tick" text-anchor="{anchor}">'
            f"{value:g}</text>"
        )
        gy = top + plot - (value - low) / span * plot
        parts.append(
            f'<text x="{left - 3}" y="{_f(gy + 3)}" class="tick" text-anchor="end">{value:g}</text>'
        )
    parts.append(
        f'<text x="{left + plot / 2:.1f}" y="{height - 4}" class="axis-label" '
        f'text-anchor="middle">{_esc(x_label)}</text>'
    )
    parts.append(
        f'<text transform="translate(10 {top + plot / 2:.1f}) rotate(-90)" class="axis-label" '
        f'text-anchor="middle">{_esc(y_label)}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def bucket_svg(
    labels: Sequence[str],
    means: npt.ArrayLike,
    lows: npt.ArrayLike,
    highs: npt.ArrayLike,
    counts: npt.ArrayLike,
    *,
    title: str,
    x_label: str,
    y_label: str,
    colours: Sequence[str],
) -> str:
    """Per bucket (x) and system (a dot each, side by side): the mean and its interval.

    ``means``, ``lows``, ``highs`` and ``counts`` are ``(buckets, systems)``. Each mark is a
    ``<g>`` with ``data-bucket``, ``data-system``, ``data-mean``, ``data-low``, ``data-high``
    and ``data-count``; a bucket without rows draws nothing but keeps its label.
    """
    mean = np.asarray(means, np.float64)
    low = np.asarray(lows, np.float64)
    high = np.asarray(highs, np.float64)
    count = np.asarray(counts, np.int64)
    n_buckets, n_sys = mean.shape
    group = max(44, 12 * n_sys + 16)
    left, right, top, bottom = 40, 10, 10, 40
    plot_w = group * n_buckets
    plot_h = 180
    width, height = left + plot_w + right, top + plot_h + bottom
    finite = high[np.isfinite(high)]
    finite_mean = mean[np.isfinite(mean)]
    peak = max(
        float(finite.max()) if finite.size else 0.0,
        float(finite_mean.max()) if finite_mean.size else 0.0,
    )
    y_top = nice_ceiling(peak) if peak > 0 else 1.0

    def y(v: float) -> float:
        return top + plot_h - min(max(v, 0.0), y_top) / y_top * plot_h

    parts = [_open(width, height, title, "buckets")]
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        gy = y(frac * y_top)
        stroke = _AXIS if frac == 0.0 else _GRID
        parts.append(
            f'<line x1="{left}" y1="{_f(gy)}" x2="{left + plot_w}" y2="{_f(gy)}" '
            f'stroke="{stroke}"/>'
        )
        parts.append(
            f'<text x="{left - 4}" y="{_f(gy + 3)}" class="tick" text-anchor="end">'
            f"{frac * y_top:g}</text>"
        )
    step = 12
    for b, label in enumerate(labels):
        centre = left + group * (b + 0.5)
        parts.append(
            f'<text x="{_f(centre)}" y="{top + plot_h + 14}" class="tick" '
            f'text-anchor="middle">{_esc(label)}</text>'
        )
        for s in range(n_sys):
            cx = centre + (s - (n_sys - 1) / 2) * step
            m, lo, hi, c = (float(mean[b, s]), float(low[b, s]), float(high[b, s]), count[b, s])
            attrs = (
                f'data-bucket="{b}" data-system="{s}" data-mean="{number_attr(m)}" '
                f'data-low="{number_attr(lo)}" data-high="{number_attr(hi)}" '
                f'data-count="{int(c)}"'
            )
            colour = colours[s % len(colours)]
            inner = ""
            if math.isfinite(lo) and math.isfinite(hi):
                inner += (
                    f'<line x1="{_f(cx)}" y1="{_f(y(lo))}" x2="{_f(cx)}" y2="{_f(y(hi))}" '
                    f'stroke="{colour}" stroke-width="2"/>'
                )
            if math.isfinite(m):
                inner += f'<circle cx="{_f(cx)}" cy="{_f(y(m))}" r="3.5" fill="{colour}"/>'
            parts.append(f'<g class="bucket-mark" {attrs}>{inner}</g>')
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" class="axis-label" '
        f'text-anchor="middle">{_esc(x_label)}</text>'
    )
    parts.append(
        f'<text transform="translate(11 {top + plot_h / 2:.1f}) rotate(-90)" class="axis-label" '
        f'text-anchor="middle">{_esc(y_label)}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
