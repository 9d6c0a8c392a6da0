"""The source layout stays as issue 13 left it: no import circles, families in packages, small modules.

Imports are read statically with ``ast`` from every module under ``src/rtk``; nothing
is imported, so no module's import side effects run. An import is an edge to the rtk
module it names (``from a.b import c`` names ``a.b.c`` when that is a module, else
``a.b``); relative imports are resolved. What is counted:

- ``module_level``: imports that run when the module is imported (top level, class
  bodies, module-level ``if``/``try``), but not those under ``if TYPE_CHECKING:``.
- ``runtime``: those plus imports inside functions. Function-level imports are how the
  hot paths stay cheap (a module is loaded only on the path that uses it), but a circle
  through them is still a circle: a module and the one it loads late depend on each
  other. That holds for a package too: ``rtk.filters.git`` loads ``rtk.filters.git.log``
  for ``git log``, so ``log`` (and whatever it imports) must not import names back from
  the package's ``__init__``; what the package and its modules share lives in a module
  of its own. (Python importing a package before its submodules is not an edge: only
  the import statements written in the source count.)
- ``if TYPE_CHECKING:`` imports are never counted: they never run, and mypy resolves
  circles among annotations.
- Dynamic imports (``__import__(name)``, ``importlib``) are not seen; the filter
  registry and the hook adapters are reached that way on purpose (by a name in a table).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "rtk"
FILTERS = ROOT / "filters"
MAX_LINES = 500


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package)."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        pkg = parts[-1] == "__init__"
        if pkg:
            parts.pop()
        out[".".join(parts)] = (path, pkg)
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    """The rtk modules one import statement names."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        # ``from pkg import sub`` runs ``pkg/__init__`` first: it depends on the package too.
        names = [mod] + [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in MODULES]
    return [n for n in names if n in MODULES]


def _imports(name: str) -> list[tuple[str, bool]]:
    """(imported module, lazy) for every runtime import in module ``name``."""
    path, is_pkg = MODULES[name]
    package = name if is_pkg else name.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def walk(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for stmt in child.orelse:
                    walk_stmt(stmt, lazy)
                continue
            walk_stmt(child, lazy)

    def walk_stmt(node: ast.AST, lazy: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.extend((t, lazy) for t in _targets(node, package) if t != name)
        inner = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        walk(node, inner)

    walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return found


IMPORTS = {name: _imports(name) for name in MODULES}


def _graph(with_lazy: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, edges in IMPORTS.items():
        for target, lazy in edges:
            if lazy and not with_lazy:
                continue  # the module-level graph
            graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path a -> b -> ... -> a) per strongly connected component with a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    comps: list[set[str]] = []

    def connect(v: str) -> None:  # Tarjan; the graph is a few hundred nodes deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return [_path_in(graph, comp) for comp in comps]


def _path_in(graph: dict[str, set[str]], comp: set[str]) -> list[str]:
    """A cycle through the first module of ``comp``, found breadth first."""
    start = min(comp)
    prev: dict[str, str] = {}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & comp):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return sorted(comp)


def _show(cycles: list[list[str]]) -> str:
    return "\n".join(" -> ".join(c) for c in cycles)


def test_the_import_reader_sees_lazy_and_relative_imports() -> None:
    # rtk.filters.git loads its log module inside a function; rtk.__main__ imports rtk.rewrite.cli lazily.
    assert ("rtk.filters.git.log", True) in IMPORTS["rtk.filters.git"]
    assert ("rtk.rewrite.cli", True) in IMPORTS["rtk.__main__"]
    assert ("rtk.filterapi", False) in IMPORTS["rtk.filters.git.status"]
    # A circle made of lazy imports is found, and printed as a path.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_at_module_level() -> None:
    cycles = _cycles(_graph(with_lazy=False))
    assert not cycles, "import circles:\n" + _show(cycles)


def test_no_import_circle_with_function_level_imports() -> None:
    cycles = _cycles(_graph(with_lazy=True))
    assert not cycles, "import circles (counting imports inside functions):\n" + _show(cycles)


def test_no_module_over_500_lines() -> None:
    long = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            long[rel] = n
    assert not long, long


def test_each_family_is_a_package_and_shared_helpers_are_shared() -> None:
    """Directly under filters/: the registry and helpers that two or more users import.

    A user is a family package (``rtk.filters.<family>``) or a module outside
    ``rtk.filters``; a helper only one family uses belongs in that family's package.
    """
    top = sorted(p.stem for p in FILTERS.glob("*.py") if p.stem != "__init__")
    assert not [m for m in top if m.startswith("_")], top
    for helper in top:
        users = set()
        for name, edges in IMPORTS.items():
            if any(t == f"rtk.filters.{helper}" for t, _ in edges):
                parts = name.split(".")
                users.add(".".join(parts[:3]) if parts[:2] == ["rtk", "filters"] else name)
        assert len(users) >= 2, f"rtk.filters.{helper} is used by {sorted(users)} only"
    families = sorted(p.parent.name for p in FILTERS.glob("*/__init__.py"))
    assert families == [
        "aws",
        "cc",
        "files",
        "gh",
        "git",
        "go",
        "jq",
        "js",
        "just",
        "php",
        "psql",
        "python",
        "ruby",
        "rust",
        "ssh",
    ]


def test_families_map_to_modules_of_their_package() -> None:
    from rtk import filters

    for word, module in filters.FAMILIES.items():
        assert module.startswith("rtk.filters."), (word, module)
        assert module in MODULES, (word, module)
        assert module.split(".")[2] in {p.parent.name for p in FILTERS.glob("*/__init__.py")}, (word, module)
