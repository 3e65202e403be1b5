"""Sample scenes of the table, as the server sends them, for drawing the page without a
bot: the start scene, a lobby (the host's and a watcher's), Pickomino mid-roll, with a
steal to make, just after a bust, Extrawurm turns (the Weasel, the Canned Worm, the
Golden Die), five players with every claim, the end with ratings; Picker mid-round, its
end and eight players; and the page's own words, in each language asked for.

    python -m tests.table.sample_scenes OUT.json [--language en de pl]

OUT.json: {"words": {lang: {...}}, "scenes": [{"name", "language", "viewer", "session",
"version", "scene"}, ...]}.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.games.registry import GAMES
from bot.i18n import LOCALES
from bot.plugin.table_scene import page_words, scene_of, start_scene
from tests.table.scenes import SCENES

DEFAULT_LANGUAGES = ("en", "de", "pl")


def samples(languages: list[str]) -> dict[str, Any]:
    """Every sample scene in every language, and the page's words in each."""
    scenes: list[dict[str, Any]] = []
    for language in languages:
        scenes.append(
            {
                "name": "start",
                "language": language,
                "viewer": None,
                "session": None,
                "version": 0,
                "scene": start_scene(list(GAMES), locale=language),
            }
        )
        for name, build in SCENES.items():
            moment = build()
            session = moment.session
            scene = scene_of(
                session,
                moment.game,
                moment.viewer,
                moment.events,
                locale=language,
                story=moment.story,
            )
            scenes.append(
                {
                    "name": name,
                    "language": language,
                    "viewer": None if moment.viewer is None else str(moment.viewer),
                    "session": session.id,
                    "version": session.version,
                    "scene": scene,
                }
            )
    words = {language: page_words(language) for language in languages}
    return {"words": words, "scenes": scenes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.table.sample_scenes", description=__doc__
    )
    parser.add_argument("out", type=Path, help="the JSON file to write")
    parser.add_argument("--language", nargs="+", default=list(DEFAULT_LANGUAGES))
    args = parser.parse_args(argv)
    unknown = [language for language in args.language if language not in LOCALES]
    if unknown:
        print(f"error: no language {unknown[0]!r}; ours are {', '.join(LOCALES)}", file=sys.stderr)
        return 2
    text = json.dumps(samples(args.language), ensure_ascii=False, indent=1)
    try:
        args.out.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        print(f"error: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"{args.out}: {len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
