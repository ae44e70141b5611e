"""A game reads its own folder and the folders its manifest names, never more: not the home folder
when the game was downloaded there, not the file system's root, not the project's `.git`.

A stranger's game is built here as it arrives: a folder `game/` (rules, manifest, its content in
`game/cards/`) with a link `notes.rules` to a secret file of the machine, and checked through every
command that reads it (`validate` as text and as GitHub annotations, `play`, `serve`), each in a
new process with HOME pointing at a home folder of the test's own.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import processes
import pytest

from interpreter.safety.files import Boundary, project_root

ROOT = Path(__file__).resolve().parent.parent
SECRET = "SECRET-KEY-7b1e"
COMMANDS = {
    "validate": ["validate", "{game}"],
    "validate --format github": ["validate", "{game}", "--format", "github"],
    "play": ["play", "{game}", "--seed", "1"],
    "serve": ["serve", "{game}", "--seed", "1", "--port", "0"],
}


def standalone_game(folder: Path) -> Path:
    """Cernunos as one folder of its own: its content in `cards/` inside it."""
    shutil.copytree(ROOT / "rulesets" / "cernunos", folder, ignore=shutil.ignore_patterns("tests", "bots"))
    shutil.copytree(ROOT / "cards" / "cernunos", folder / "cards")
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("../../cards/cernunos", "cards"), encoding="utf-8")
    return folder


@pytest.fixture
def home(tmp_path) -> Path:
    """A home folder with an SSH key in it."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n", encoding="utf-8")
    return home


def ludolex(command: str, game: Path, home: Path) -> subprocess.CompletedProcess:
    args = [a.format(game=game) for a in COMMANDS[command]]
    script = Path(sys.executable).parent / "ludolex"
    run = [str(script)] if script.exists() else [sys.executable, "-m", "interpreter"]
    return processes.run(run + args, capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL,
                         env={**os.environ, "HOME": str(home), "LUDOLEX_TEST_SECRET": SECRET})


def assert_refused_unread(result: subprocess.CompletedProcess, link: str) -> None:
    shown = result.stdout + result.stderr
    assert result.returncode != 0, shown
    assert "LX209" in shown and link in shown, shown
    assert SECRET not in shown and "Traceback" not in shown, shown


@pytest.mark.parametrize("command", COMMANDS)
def test_a_game_downloaded_to_the_home_folder_cannot_read_the_users_key(home, command):
    game = standalone_game(home / "Downloads" / "game")
    (game / "notes.rules").symlink_to(Path("..") / ".." / ".ssh" / "id_ed25519")
    assert_refused_unread(ludolex(command, game, home), "notes.rules")


@pytest.fixture
def below_the_root():
    """A folder right below the file system's root (where it may be written), removed afterwards."""
    folder = Path("/") / f"ludolex-test-{uuid.uuid4().hex}"
    try:
        folder.mkdir()
    except OSError:
        pytest.skip("the file system's root cannot be written here")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc")
@pytest.mark.parametrize("command", ["validate", "play"])
def test_a_game_whose_grandparent_is_the_root_cannot_read_the_environment(home, below_the_root, command):
    game = standalone_game(below_the_root / "game")
    (game / "environ.rules").symlink_to("/proc/self/environ")
    assert_refused_unread(ludolex(command, game, home), "environ.rules")


def test_a_home_folder_under_git_is_not_the_project_of_a_game_in_it(home):
    (home / ".git").mkdir()  # dotfiles kept in git
    game = standalone_game(home / "games" / "game")
    (game / "notes.rules").symlink_to(Path("..") / ".." / ".ssh" / "id_ed25519")
    assert_refused_unread(ludolex("validate", game, home), "notes.rules")


@pytest.mark.parametrize("command", ["validate", "validate --format github", "play"])
def test_a_game_in_a_git_project_cannot_read_the_projects_git_folder(home, command):
    project = home / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "config").write_text(f'[remote "origin"]\n\turl = https://{SECRET}@example.com/x\n')
    game = standalone_game(project / "rulesets" / "game")
    (game / "config.rules").symlink_to(Path("..") / ".." / ".git" / "config")
    assert_refused_unread(ludolex(command, game, home), "config.rules")


def test_a_manifest_cannot_name_the_projects_git_folder(home):
    project = home / "project"
    (project / ".git" / "hooks").mkdir(parents=True)
    game = standalone_game(project / "rulesets" / "game")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "rules: [../../.git/hooks]\n", encoding="utf-8")
    result = ludolex("validate", game, home)
    assert result.returncode == 1 and "game.yaml" in result.stdout and "LX209" in result.stdout, result.stdout


def test_a_game_one_folder_below_the_root_is_its_own_project():
    assert project_root(Path("/ludolex-game-that-does-not-exist")) == Path("/ludolex-game-that-does-not-exist")


def test_the_game_folder_and_what_its_manifest_names_are_read_and_nothing_else_of_the_project(tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    game, cards, notes = project / "rulesets" / "game", project / "cards" / "game", project / "notes"
    for folder in (game, cards, notes):
        folder.mkdir(parents=True)
    boundary = Boundary.of_ruleset(game)
    assert boundary.project == project.resolve()
    assert boundary.contains(game.resolve() / "game.rules")
    assert not boundary.contains(cards.resolve() / "deck.yaml") and boundary.may_name(cards.resolve())
    named = boundary.including(cards.resolve())
    assert named.contains(cards.resolve() / "deck.yaml")
    assert not named.contains(notes.resolve() / "private.rules")
    assert not named.may_name(project.resolve() / ".git" / "config")


def test_the_language_server_never_shows_the_key_nor_the_environment(home, monkeypatch):
    """The same game opened in an editor: the links are LX209 on the links themselves, a hover on
    them is refused, and nothing the server sends holds the key or the environment."""
    from pygls.exceptions import JsonRpcException
    from test_lsp import Editor

    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LUDOLEX_TEST_SECRET", SECRET)  # in the server's environment
    game = standalone_game(home / "Downloads" / "game")
    (game / "notes.rules").symlink_to(Path("..") / ".." / ".ssh" / "id_ed25519")
    (game / "environ.rules").symlink_to("/proc/self/environ")

    async def test():
        editor = Editor(game)
        await editor.start()
        try:
            for link in ("notes.rules", "environ.rules"):
                uri = (game / link).as_uri()
                found = await editor.diagnostics_of(uri, lambda found: found)
                assert [d.code for d in found] == ["LX209"]
                with pytest.raises(JsonRpcException) as refused:
                    await editor.hover_at(uri, 1, 1)
                assert SECRET not in str(refused.value)
            sent = [d.message for found in editor.diagnostics.values() for d in found]
            assert sent and not any(SECRET in message for message in sent)
        finally:
            await editor.stop()
    asyncio.run(test())
