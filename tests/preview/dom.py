"""A small tree of the preview's HTML, so tests can ask what is inside what."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"img", "br", "hr", "meta", "input", "path", "link"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def all(self, css_class: str | None = None, tag: str | None = None) -> list[Node]:
        """Every descendant with that class (and tag), in document order."""
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if (css_class is None or css_class in child.classes) and (
                    tag is None or child.tag == tag
                ):
                    found.append(child)
                found.extend(child.all(css_class, tag))
        return found

    def one(self, css_class: str | None = None, tag: str | None = None) -> Node:
        (node,) = self.all(css_class, tag)
        return node

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def kids(self) -> list[Node]:
        return [child for child in self.children if isinstance(child, Node)]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {key: value or "" for key, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {key: value or "" for key, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    """The fragment's tree; fails on a tag closed out of order (broken HTML)."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert builder.stack == [builder.root], "unclosed tags"
    return builder.root
