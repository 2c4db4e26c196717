"""The engine is pure Python: importing it never loads Qt, and gui uses its public API."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUBLIC_ENGINE_MODULES = {"engine", "engine.effects", "engine.board", "engine.ai"}


def test_importing_engine_loads_no_qt() -> None:
    code = (
        "import sys, engine, engine.games, engine.registry\n"
        "engine.game_names()\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'gui'))]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_engine_sources_never_import_qt_or_gui() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        for name in _imports(path):
            assert not name.startswith(("PySide6", "gui")), f"{path}: imports {name}"


def test_gui_uses_only_the_public_engine_api() -> None:
    for path in (ROOT / "gui").rglob("*.py"):
        for name in _imports(path):
            if name == "engine" or name.startswith("engine."):
                assert name in PUBLIC_ENGINE_MODULES, f"{path}: imports {name}"
