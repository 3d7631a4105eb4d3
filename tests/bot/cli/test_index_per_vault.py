"""Each vault keeps an index of its own: without INDEX_DIR, trying another vault (the README's
``WIKI_DIR=tests/fixtures/seeds sakuin ask …``) never rebuilds over the first one's; with one
INDEX_DIR for two vaults, the command says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.commands import main
from config.settings import INDEX_ROOT, Settings, index_dir_for
from tests.conftest import EXAMPLE_VAULT
from tests.vaults import SMALL_VAULT, entity, write_vault

OTHER_VAULT = {"wiki/entities/Volcano Engine.md": entity("Volcano Engine", body="ByteDance のクラウド。")}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def vaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("UI_LANGUAGE", "en")
    monkeypatch.setenv("STATE_DB", str(tmp_path / "state.sqlite3"))
    return write_vault(tmp_path / "team", SMALL_VAULT), write_vault(tmp_path / "other", OTHER_VAULT)


def test_the_default_index_is_keyed_by_the_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    team = write_vault(tmp_path / "team", SMALL_VAULT)
    monkeypatch.chdir(tmp_path)
    defaults = {
        "absolute": index_dir_for(team),
        "relative": index_dir_for(Path("team")),
        "bundled": index_dir_for(EXAMPLE_VAULT),
        "other": index_dir_for(tmp_path / "other"),
    }
    assert defaults["absolute"] == defaults["relative"]  # one vault, however it is written
    assert len({defaults["absolute"], defaults["bundled"], defaults["other"]}) == 3
    assert all(path.parent == INDEX_ROOT and len(path.name) == 12 for path in defaults.values())


@pytest.mark.parametrize(
    ("env", "vault", "index_dir"),
    [
        ({"WIKI_DIR": "team"}, Path("team"), None),
        ({"WIKI_DIR": "team", "INDEX_DIR": "elsewhere/index"}, None, Path("elsewhere/index")),
        ({"WIKI_GIT_URL": "file:///nowhere.git"}, Path(".sakuin/vault"), None),
        ({}, EXAMPLE_VAULT, None),
    ],
)
def test_index_dir_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], vault: Path | None, index_dir: Path | None
) -> None:
    """The default is the vault's own (relative paths from here, the working directory); an
    explicit INDEX_DIR stays as given."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert Settings(_env_file=None).index_dir == (index_dir or index_dir_for(vault))  # type: ignore[arg-type]


def test_another_vault_does_not_rebuild_the_first_ones_index(
    vaults: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    team, other = vaults
    monkeypatch.setenv("WIKI_DIR", str(team))
    code, _, built = run(capsys, "lookup", "ByteDance")
    assert code == 0 and "index built" in built

    monkeypatch.setenv("WIKI_DIR", str(other))
    code, out, built = run(capsys, "lookup", "Volcano Engine")
    assert code == 0 and "match: Volcano Engine" in out and "index built" in built

    monkeypatch.setenv("WIKI_DIR", str(team))
    code, out, again = run(capsys, "lookup", "ByteDance")
    assert code == 0 and "match: ByteDance" in out
    assert again == ""  # its own index, still up to date: nothing rebuilt, nothing to say
    assert index_dir_for(team).is_dir() and index_dir_for(other).is_dir()


def test_one_index_dir_for_two_vaults_is_said(
    vaults: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    team, other = vaults
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "shared"))
    monkeypatch.setenv("WIKI_DIR", str(team))
    assert run(capsys, "lookup", "ByteDance")[0] == 0

    monkeypatch.setenv("WIKI_DIR", str(other))
    code, out, said = run(capsys, "lookup", "Volcano Engine")
    assert code == 0 and "match: Volcano Engine" in out
    assert said.startswith(
        f"sakuin: the index in {tmp_path / 'shared'} was built for {team.resolve()}, not {other.resolve()}"
    )
    assert run(capsys, "lookup", "Volcano Engine")[2] == ""  # said once, when it changed hands
