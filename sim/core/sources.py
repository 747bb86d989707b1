"""Which sources the compiled engines are built from: the key of numba's on-disk cache (``sim/__init__.py``).

numba checks only the file of each cached function, but the engines inline bots, rules and the random
streams of other modules. The cache folder is therefore named by a hash of every module compiled code
may use: the modules that use numba (import it, or decorate with the decorator of a module that does,
e.g. ``@compiled`` from ``wonderful_island.state``) and every ``sim`` module they import from at module
level, transitively (only module-level names can be compiled in: constants, functions, decorators).
Analysis, reference and plotting modules that no such module imports are left out, so editing them
does not recompile the engines (their own ``@njit`` functions, if any, numba re-checks by file).
"""

from __future__ import annotations

import ast
import hashlib
import os
from pathlib import Path


def _candidates(package: Path) -> list[Path]:
    return [*sorted((package / "core").glob("*.py")), *sorted((package / "games").rglob("*.py"))]


def _module_file(package: Path, dotted: str) -> Path:
    base = package.parent.joinpath(*dotted.split("."))
    return base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"


def _imports(tree: ast.Module, package: Path, path: Path) -> dict[str, Path]:
    """Names bound by the module-level imports from ``sim`` of one file, each with the file it comes from
    (a submodule's own file when the name is one); ``numba`` maps to the file itself if it imports numba."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            dotted = node.module or ""
            if node.level:  # relative: from the package of ``path``
                parts = path.relative_to(package.parent).with_suffix("").parts[:-node.level]
                dotted = ".".join([*parts, *dotted.split(".")]).strip(".")
            if dotted.split(".")[0] == package.name:
                base = package.parent.joinpath(*dotted.split("."))
                for alias in node.names:
                    sub = base / f"{alias.name}.py"
                    found[alias.asname or alias.name] = sub if sub.exists() else _module_file(package, dotted)
            elif dotted.split(".")[0] == "numba":
                found["numba"] = path
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top == "numba":
                    found["numba"] = path
                elif top == package.name:
                    found[alias.asname or alias.name] = _module_file(package, alias.name)
    return found


def _decorators(tree: ast.Module) -> set[str]:
    """Names of the decorators of the module's top-level functions (``njit`` for ``@njit(cache=True)``)."""
    names = set()
    for node in tree.body:
        for deco in getattr(node, "decorator_list", []):
            deco = deco.func if isinstance(deco, ast.Call) else deco
            names.add(deco.id if isinstance(deco, ast.Name) else getattr(deco, "attr", ""))
    return names


def compiled_sources(package: Path) -> list[Path]:
    """The files of ``package``'s ``core`` and ``games`` that compiled code is built from (see above)."""
    files = _candidates(package)
    trees = {path: ast.parse(path.read_bytes()) for path in files}
    imports = {path: _imports(tree, package, path) for path, tree in trees.items()}
    compiled = {path for path in files if "numba" in imports[path]}
    grew = True
    while grew:  # decorating with a compiled module's decorator makes a module compiled too
        added = {path for path in files if path not in compiled
                 and any(imports[path].get(name) in compiled for name in _decorators(trees[path]))}
        compiled |= added
        grew = bool(added)
    return _closure(compiled, imports)


def _closure(roots, imports: dict[Path, dict[str, Path]]) -> list[Path]:
    """``roots`` and every file they import from, transitively (``imports``: each file's ``_imports``)."""
    needed, todo = set(), list(roots)
    while todo:
        path = todo.pop()
        if path not in needed and path in imports:
            needed.add(path)
            todo.extend(imports[path].values())
    return sorted(needed)


def imported_sources(module: Path) -> list[Path]:
    """The file ``module`` of the ``sim`` package and every ``sim`` module it imports at module level,
    transitively: all the code a self-contained module (a game's plain-Python reference) runs. The tests
    key the references' kept results on these files' bytes (tests/reference_memo.py)."""
    package = Path(__file__).resolve().parent.parent
    files = _candidates(package)
    imports = {path: _imports(ast.parse(path.read_bytes()), package, path) for path in files}
    return _closure([module.resolve()], imports)


def _hash(package: Path, paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# the modules of sim/core whose functions every engine compiles in (the random streams, bit tricks, njit)
COMPILED_CORE = ("rng.py", "bits.py", "jit.py")


def results_digest(package: Path, game: str | None = None) -> str:
    """16 hex digits of SHA-256 over ``COMPILED_CORE`` and the game's folder ``games/<game>`` (its engine,
    bots and analyses; no game imports another's), or all of ``games/`` for a game without a folder there
    (or ``game`` None): names the results of ``sim robust`` and ``sim skill`` (``sim.workflow.robust``),
    which depend on the analysis as well as the engines, so editing one game leaves the others' results
    fresh. The numba cache folder is named by the narrower ``compiled_digest``."""
    games = package / "games"
    folder = games / game if game else games
    files = folder.rglob("*.py") if folder.is_dir() else games.rglob("*.py")
    return _hash(package, [*(package / "core" / name for name in COMPILED_CORE), *sorted(files)])


def compiled_digest(package: Path, memo: Path) -> str:
    """16 hex digits of SHA-256 over ``compiled_sources(package)``. Finding those files parses every
    candidate (about a second on a loaded machine), so the answer is kept in ``memo`` (a folder) under
    the hash of all the candidates' bytes, which is cheap to recompute."""
    known = memo / f"sources-{_hash(package, _candidates(package))}"
    if known.exists():
        os.utime(known)  # in use: kept while stale versions are cleared (sim/__init__.py)
        return known.read_text().strip()
    digest = _hash(package, compiled_sources(package))
    memo.mkdir(parents=True, exist_ok=True)
    partial = known.with_name(f"{known.name}.{os.getpid()}")
    partial.write_text(digest + "\n")
    partial.replace(known)  # atomic: a process starting meanwhile never reads half a file
    return digest
