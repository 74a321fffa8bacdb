"""The written report page as a tree (:class:`Dom`) and what a reader sees of a text cell
(:func:`painted`), for the report tests."""

from __future__ import annotations

import html.parser
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

_VOID = {"br", "meta", "img", "input", "link", "hr", "wbr", "source", "area", "base", "col"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, test: Callable[[Node], bool]) -> list[Node]:
        return [node for node in self.iter() if test(node)]

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class Dom(html.parser.HTMLParser):
    """The page as a tree; text is unescaped, so it is what a browser shows."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self._stack = [self.root]
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self._stack[-1].children.append(node)
        if tag not in _VOID:
            self._stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._stack) - 1, 0, -1):
            if self._stack[depth].tag == tag:
                del self._stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self._stack[-1].children.append(data)

    def all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        def test(node: Node) -> bool:
            if tag is not None and node.tag != tag:
                return False
            return all(
                node.attrs.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items()
            )

        return self.root.find_all(test)

    def one(self, tag: str | None = None, **attrs: str) -> Node:
        found = self.all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} matches for {tag} {attrs}"
        return found[0]


def painted(div: Node) -> tuple[str, list[tuple[str | None, str | None, str | None]]]:
    """The shown text of a ``.text`` div and, per character, its tint class, underline class
    and error box severity (markers, omission carets and the cut note are not text)."""
    chars: list[str] = []
    looks: list[tuple[str | None, str | None, str | None]] = []

    def walk(node: Node, tint: str | None, line: str | None, box: str | None) -> None:
        classes = node.classes
        if node.tag == "sup" or classes & {"omit", "cut"}:
            return
        for c in classes:
            if re.fullmatch(r"m\d+|tx|tl", c):
                tint = c
            elif c in ("uu", "ux", "ul"):
                line = c
            elif c.startswith("sev-") and "err" in classes:
                box = c.removeprefix("sev-")
        for child in node.children:
            if isinstance(child, str):
                chars.append(child)
                looks.extend([(tint, line, box)] * len(child))
            else:
                walk(child, tint, line, box)

    walk(div, None, None, None)
    return "".join(chars), looks
