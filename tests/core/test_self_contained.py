"""The project stands on its own: no file cites the shared notes outside the repository (GAMES dot md); every
reading the code relies on is written in docs/rules/."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("sim", "scenarios", "docs", "tests", "scripts")


def test_no_file_cites_games_md():
    """Issue 23 item 8: docs/rules, base.toml and sim/core/scenario.py cited a file not in the repository."""
    marker = "GAMES" + ".md"  # split so this file does not cite it either
    citing = [str(path.relative_to(ROOT)) for folder in FOLDERS for path in (ROOT / folder).rglob("*")
              if path.is_file() and path.suffix in (".py", ".md", ".toml", ".txt") and "__pycache__" not in path.parts
              and marker in path.read_text(encoding="utf-8", errors="ignore")]
    assert not citing, citing
    assert (ROOT / "README.md").read_text(encoding="utf-8").count(marker) == 0
