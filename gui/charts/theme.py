"""Colours and styling of the comparison charts, for light and dark palettes, and their export.

Charts take their colours from the widget's palette (dark when the base colour is dark, as the
rest of the app decides), so they follow the desktop's theme and re-style when it changes.
System colours are the theme's (:attr:`core.style.palette.Theme.systems`): Okabe–Ito's, in the
corpus summary's order, made to stand out against the chart's background. Export goes through
:func:`core.io.safewrite.write_file_atomic`, like every file the app writes; an SVG's text names
a font stack that ends in CSS's ``sans-serif`` (:func:`svg_font_family`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters as pg_exporters
from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QRectF, QSize
from PySide6.QtGui import QColor, QFont, QFontInfo, QPainter, QPalette
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from matchlight.core.io.safewrite import write_file_atomic
from matchlight.core.style.palette import theme as palette_theme
from matchlight.gui.highlight.palette import is_dark_palette

__all__ = [
    "EXPORT_FORMATS",
    "SVG_FONT_FALLBACK",
    "ChartTheme",
    "export_item",
    "style_plot",
    "svg_font_family",
    "theme_for",
]

# Export formats by file suffix.
EXPORT_FORMATS: dict[str, str] = {".png": "PNG image", ".svg": "SVG vector image"}
# Width of exported PNGs, in pixels (a column of a two-column paper at 300 dpi is ~1000).
EXPORT_WIDTH = 1600


@dataclass(frozen=True, slots=True)
class ChartTheme:
    """The colours one chart is drawn with."""

    dark: bool
    background: QColor
    foreground: QColor
    muted: QColor  # axes, grid, secondary marks
    context: QColor  # what is drawn behind the data (all rows, the diagonal)
    highlight: QColor  # a brushed range, selected points

    def system(self, index: int, alpha: int = 255) -> QColor:
        colours = palette_theme(self.dark).systems
        colour = QColor(colours[index % len(colours)])
        colour.setAlpha(alpha)
        return colour

    def with_alpha(self, colour: QColor, alpha: int) -> QColor:
        out = QColor(colour)
        out.setAlpha(alpha)
        return out


def theme_for(widget: QWidget) -> ChartTheme:
    """The theme matching ``widget``'s palette."""
    palette = widget.palette()
    dark = is_dark_palette(palette)
    background = palette.color(QPalette.ColorRole.Base)
    foreground = palette.color(QPalette.ColorRole.Text)
    if dark:
        return ChartTheme(
            dark=True,
            background=background,
            foreground=foreground,
            muted=QColor("#9a9a9a"),
            context=QColor(150, 150, 150, 90),
            highlight=QColor("#FFD166"),
        )
    return ChartTheme(
        dark=False,
        background=background,
        foreground=foreground,
        muted=QColor("#555555"),
        context=QColor(120, 120, 120, 60),
        highlight=QColor("#C8102E"),
    )


def style_plot(plot: pg.PlotItem, theme: ChartTheme, *, title: str | None = None) -> None:
    """Axis, label and title colours of ``plot`` for ``theme`` (and its title, if given)."""
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(theme.muted))
        axis.setTextPen(pg.mkPen(theme.foreground))
        label = axis.labelText
        if label:
            axis.setLabel(label, units=axis.labelUnits or None, color=theme.foreground.name())
    text = title if title is not None else plot.titleLabel.text
    plot.setTitle(text, color=theme.foreground.name(), size="10pt")


def _png_bytes(item: pg.GraphicsObject | pg.GraphicsLayout) -> bytes:
    exporter = pg_exporters.ImageExporter(item)
    source_width = max(1, int(exporter.getSourceRect().width()))
    exporter.parameters()["width"] = max(EXPORT_WIDTH, source_width)
    image = exporter.export(toBytes=True)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError("the image could not be encoded as PNG")
    buffer.close()
    return bytes(data.data())


# What an exported SVG's text falls back to where its reader lacks the font it was drawn in:
# fonts of about its width, then the CSS generic family. Qt names only its own family, and a
# reader that does not know that name (Qt's "Sans Serif" alias is none of CSS's) draws serif.
SVG_FONT_FALLBACK: tuple[str, ...] = (
    "DejaVu Sans",
    "Verdana",
    "Noto Sans",
    "Segoe UI",
    "Helvetica",
    "Arial",
    "sans-serif",
)
_CSS_GENERIC = frozenset({"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"})
_FONT_FAMILY = re.compile(rb'font-family="([^"]*)"')


def svg_font_family(family: str) -> str:
    """The CSS font stack for text Qt drew in ``family``: the installed font Qt drew it in (an
    alias such as "Sans Serif" resolved), then :data:`SVG_FONT_FALLBACK`."""
    used = QFontInfo(QFont(family)).family() or family
    names = list(dict.fromkeys([used, *SVG_FONT_FALLBACK]))
    quoted = [n if n in _CSS_GENERIC else "'" + n.replace("'", "") + "'" for n in names]
    return html.escape(", ".join(quoted), quote=False)


def _with_font_stacks(svg: bytes) -> bytes:
    """``svg`` (Qt's generator's) with every ``font-family`` a stack ending in a CSS generic."""
    stacks: dict[bytes, bytes] = {}

    def stack(match: re.Match[bytes]) -> bytes:
        family = match.group(1)
        if family not in stacks:
            name = html.unescape(family.decode("utf-8", "replace"))
            stacks[family] = svg_font_family(name).encode("utf-8")
        return b'font-family="' + stacks[family] + b'"'

    return _FONT_FAMILY.sub(stack, svg)


def _svg_bytes(item: pg.GraphicsObject | pg.GraphicsLayout) -> bytes:
    """``item``'s part of the view as SVG (vector paths and text), drawn by Qt's generator.

    pyqtgraph's SVGExporter rewrites the generator's path data, and that rewrite fails on the
    path syntax of the Qt versions Matchlight supports (pyqtgraph issue #3485), so the view is
    rendered as it is drawn on screen, at the screen's resolution.
    """
    scene = item.scene()
    views = [] if scene is None else scene.views()
    if not views:
        raise OSError("the chart is not on screen")
    view = views[0]
    source = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    source = source.intersected(view.viewport().rect())
    width, height = max(1, source.width()), max(1, source.height())
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setResolution(view.logicalDpiX())
    generator.setSize(QSize(width, height))
    generator.setViewBox(QRectF(0, 0, width, height))
    generator.setTitle(QCoreApplication.translate("theme", "Matchlight chart"))
    painter = QPainter(generator)
    try:
        painter.fillRect(QRectF(0, 0, width, height), view.backgroundBrush())
        view.render(painter, QRectF(0, 0, width, height), source)
    finally:
        painter.end()
    buffer.close()
    return _with_font_stacks(bytes(data.data()))


def export_item(
    item: pg.GraphicsObject | pg.GraphicsLayout, path: str | Path, *, protect: Iterable[str] = ()
) -> Path:
    """Write ``item`` (a plot or a layout of plots) as PNG or SVG, by ``path``'s suffix.

    The file is written atomically and never over one of ``protect`` (the comparison's
    inputs). Raises ValueError for another suffix and OSError when it cannot be written.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".png":
        data = _png_bytes(item)
    elif suffix == ".svg":
        data = _svg_bytes(item)
    else:
        raise ValueError(f"{target.name}: choose a .png or .svg file name")
    return write_file_atomic(target, data, protect=protect)
