"""The preview command's input and its errors (no browser needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.preview import shoot
from bot.preview.__main__ import main, table
from bot.preview.files import MessageFileError, load_messages
from bot.preview.shoot import Shot

SAMPLES = Path(__file__).parent / "samples" / "pickomino.json"


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "not JSON"),
        ('{"name": "x"}', "expected a list"),
        ("[]", "no messages"),
        ('[{"name": "x"}]', 'entry 1: "payload" must be an object'),
        ('[{"name": "", "payload": {}}]', '"name" must be a non-empty string'),
        ('[{"name": "a", "payload": {}}, 3]', "entry 2: not an object"),
        ('[{"name": "a", "payload": {}, "author": {"colour": 1}}]', "entry 1:"),
        ('[{"name": "a", "payload": {}, "now": "soon"}]', '"now" must be unix seconds'),
    ],
)
def test_a_broken_file_is_one_error_line_and_exit_2(tmp_path, capsys, text, says):
    path = tmp_path / "messages.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, str(path), "--out", str(tmp_path / "out"))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and says in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_missing_file(tmp_path, capsys):
    code, _, err = _run(capsys, str(tmp_path / "nope.json"))
    assert code == 2 and err == f"error: {tmp_path / 'nope.json'}: no such file\n"


def test_a_missing_browser_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shoot, "CHROMIUM", tmp_path / "no-chromium")
    code, out, err = _run(capsys, str(SAMPLES), "--out", str(tmp_path / "out"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: cannot start Chromium")
    assert "apt-get install chromium fonts-noto-color-emoji" in err
    assert "pip install playwright" in err


def test_json_lines_and_the_optional_keys(tmp_path):
    lines = [
        {"name": "a", "payload": {"content": "<@1>"}, "names": {"1": "Anne"}, "now": 5},
        {"name": "b", "payload": {"content": "x"}, "author": {"name": "Bob", "bot": False}},
        {"name": "c", "payload": {}, "command": {"user": "Anne", "command": "pickomino start"}},
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    first, second, third = load_messages(path)
    assert first.names == {"1": "Anne"} and first.now == 5 and "@Anne" in first.html()
    assert second.author is not None and second.author.name == "Bob" and "Bob" in second.html()
    assert "/pickomino start" in third.html()


def test_the_samples_load():
    names = [message.name for message in load_messages(SAMPLES)]
    assert names == ["lobby", "turn-5-players", "turn-7-players-14-claims", "final"]


def test_a_non_file_path_is_refused(tmp_path):
    with pytest.raises(MessageFileError, match="no such file"):
        load_messages(tmp_path)


def test_the_table_lists_phone_widths_first():
    shots = [
        Shot("turn", 800, 661.4, Path("a")),
        Shot("turn", 390, 770.0, Path("b")),
        Shot("a-longer-name", 390, 12.6, Path("c")),
    ]
    assert table(shots).splitlines() == [
        "name           width  height px",
        "turn             390        770",
        "a-longer-name    390         13",
        "turn             800        661",
    ]
