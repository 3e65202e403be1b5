"""python -m bot.preview FILE.json --out DIR: draw each message at 390 and 800 px and
print its height."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.i18n import t
from bot.preview.files import MessageFileError, load_messages
from bot.preview.shoot import WIDTHS, BrowserMissing, Shot, screenshot


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError as error:
        raise argparse.ArgumentTypeError("widths are numbers: 390,800") from error
    if not widths or min(widths) < 200 or max(widths) > 4000:
        raise argparse.ArgumentTypeError("widths are between 200 and 4000 px")
    return widths


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot.preview", description=__doc__)
    parser.add_argument("file", type=Path, help="JSON list or JSON Lines of {name, payload}")
    parser.add_argument("--out", type=Path, default=Path("previews"), help="folder for PNGs")
    parser.add_argument("--widths", type=_widths, default=WIDTHS, help="e.g. 390,800")
    return parser


def table(shots: list[Shot]) -> str:
    width = max([len("name"), *(len(shot.name) for shot in shots)])
    lines = [t("preview.cli.table_header", name="name", width=width)]
    lines += [
        t("preview.cli.row", name=s.name, width=width, shot_width=s.width, height=round(s.height))
        for s in sorted(shots, key=lambda shot: shot.width)
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        messages = load_messages(args.file)
        pages = [(message.name, message.html()) for message in messages]
        shots = asyncio.run(screenshot(pages, args.widths, args.out))
    except (MessageFileError, BrowserMissing) as error:
        print(error, file=sys.stderr)
        return 2
    print(table(shots))
    print(t("preview.cli.saved", folder=args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
