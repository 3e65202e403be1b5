"""python -m tests.table.sample_scenes: every sample scene in each language asked for,
and a clear error line for a language we lack or a file it cannot write."""

from __future__ import annotations

import json

from tests.table.sample_scenes import main
from tests.table.scenes import SCENES


def test_it_writes_every_scene_in_each_language(tmp_path, capsys):
    out = tmp_path / "scenes.json"
    assert main([str(out), "--language", "en", "pl"]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    names = {(s["name"], s["language"]) for s in written["scenes"]}
    assert names == {(name, lang) for name in ["start", *SCENES] for lang in ("en", "pl")}
    assert written["words"]["pl"]["your_turn"] == "Twoja kolej"
    assert f"{out}:" in capsys.readouterr().out


def test_a_language_we_lack_and_a_folder_that_is_not_there_are_errors(tmp_path, capsys):
    assert main([str(tmp_path / "x.json"), "--language", "xx"]) == 2
    assert capsys.readouterr().err.startswith("error: no language 'xx'")
    assert main([str(tmp_path / "missing" / "x.json")]) == 2
    assert capsys.readouterr().err.startswith("error: cannot write")
