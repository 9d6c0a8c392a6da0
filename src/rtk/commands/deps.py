"""``rtk deps [PATH]``: what a project depends on, from its manifests, one line per dependency group."""

from __future__ import annotations

import os
import time

from rtk.commands._own import parse, track, write
from rtk.errors import RtkError
from rtk.tokens import estimate_shaped

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HELP = """\
usage: rtk deps [PATH]                    (default: the current directory)

Summarise the dependency manifests in PATH (or the manifest PATH names):
Cargo.toml, package.json, pyproject.toml, requirements*.txt, go.mod, Gemfile.
Each manifest gives its package name and version, then one line per group
(dependencies, dev, optional groups...) listing every dependency with its
version constraint as written. A manifest that cannot be parsed is reported
and the exit status is 1.

options:
  -h, --help   this help"""

MANIFESTS = ("Cargo.toml", "package.json", "pyproject.toml", "requirements.txt", "go.mod", "Gemfile")


def _line(group: str, items: list[str]) -> str:
    return f"  {group} ({len(items)}): {', '.join(items)}" if items else f"  {group}: none"


def _cargo_dep(name: str, v: Any) -> str:
    if isinstance(v, str):
        return f"{name} {v}"
    if not isinstance(v, dict):
        return name
    parts = [name]
    if "version" in v:
        parts.append(str(v["version"]))
    for k in ("path", "git", "branch", "tag", "rev"):
        if k in v:
            parts.append(f"({k} {v[k]})")
    if v.get("workspace"):
        parts.append("(workspace)")
    if v.get("optional"):
        parts.append("(optional)")
    if v.get("features"):
        parts.append("[" + ", ".join(map(str, v["features"])) + "]")
    return " ".join(parts)


def cargo(text: str) -> list[str]:
    import tomllib

    doc = tomllib.loads(text)
    pkg = doc.get("package", {})
    out = [f"{pkg.get('name', '?')} {pkg.get('version', '')}".rstrip()] if pkg else ["(workspace)"]
    ws = doc.get("workspace", {})
    if ws.get("members"):
        out.append(_line("workspace members", [str(m) for m in ws["members"]]))
    sections: list[tuple[str, dict[str, Any]]] = [
        (s, doc[s]) for s in ("dependencies", "dev-dependencies", "build-dependencies") if s in doc
    ]
    if "dependencies" in ws:
        sections.append(("workspace.dependencies", ws["dependencies"]))
    for target, body in doc.get("target", {}).items():
        for s in ("dependencies", "dev-dependencies", "build-dependencies"):
            if s in body:
                sections.append((f"target.{target}.{s}", body[s]))
    for title, deps in sections:
        out.append(_line(title, [_cargo_dep(n, v) for n, v in deps.items()]))
    return out


def package_json(text: str) -> list[str]:
    import json

    doc = json.loads(text.lstrip("\ufeff"))
    out = [f"{doc.get('name', '?')}@{doc.get('version', '')}".rstrip("@")]
    for s in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        if isinstance(doc.get(s), dict):
            out.append(_line(s, [f"{n} {v}" for n, v in doc[s].items()]))
    if isinstance(doc.get("workspaces"), list):
        out.append(_line("workspaces", [str(w) for w in doc["workspaces"]]))
    return out


def _poetry(deps: dict[str, Any]) -> list[str]:
    items = []
    for n, v in deps.items():
        if isinstance(v, dict):
            v = v.get("version") or " ".join(f"({k} {v[k]})" for k in ("path", "git") if k in v)
        items.append(f"{n} {v}".rstrip())
    return items


def pyproject(text: str) -> list[str]:
    import tomllib

    doc = tomllib.loads(text)
    proj = doc.get("project", {})
    poetry = doc.get("tool", {}).get("poetry", {})
    name = proj.get("name") or poetry.get("name") or "?"
    version = proj.get("version") or poetry.get("version") or ""
    head = f"{name} {version}".rstrip()
    if proj.get("requires-python"):
        head += f" (python {proj['requires-python']})"
    out = [head]
    if "dependencies" in proj:
        out.append(_line("dependencies", [str(d) for d in proj["dependencies"]]))
    for group, deps in proj.get("optional-dependencies", {}).items():
        out.append(_line(f"optional [{group}]", [str(d) for d in deps]))
    for group, deps in doc.get("dependency-groups", {}).items():
        items = [str(d) if isinstance(d, str) else f"(include {d.get('include-group', d)})" for d in deps]
        out.append(_line(f"group {group}", items))
    if "dependencies" in poetry:
        out.append(_line("poetry dependencies", _poetry(poetry["dependencies"])))
    if "dev-dependencies" in poetry:
        out.append(_line("poetry dev-dependencies", _poetry(poetry["dev-dependencies"])))
    for group, body in poetry.get("group", {}).items():
        out.append(_line(f"poetry group {group}", _poetry(body.get("dependencies", {}))))
    return out


def requirements(text: str) -> list[str]:
    items = []
    for ln in text.splitlines():
        s = ln.split(" #", 1)[0].strip() if not ln.lstrip().startswith("#") else ""
        if s:
            items.append(s)
    return ["(pip requirements)", _line("requirements", items)]


def go_mod(text: str) -> list[str]:
    module = go = ""
    direct: list[str] = []
    indirect: list[str] = []
    other: list[str] = []
    block = ""
    for raw in text.splitlines():
        ln = raw.split("//", 1)[0].strip()
        is_indirect = "// indirect" in raw
        if not ln:
            continue
        if block:
            if ln == ")":
                block = ""
                continue
            entry = " ".join(ln.split())
        else:
            word, _, rest = ln.partition(" ")
            rest = rest.strip()
            if word == "module":
                module = rest
                continue
            if word == "go":
                go = rest
                continue
            if rest == "(":
                block = word
                continue
            block_word, entry = word, " ".join(rest.split())
            if block_word != "require":
                other.append(f"{block_word} {entry}")
                continue
            (indirect if is_indirect else direct).append(entry)
            continue
        if block == "require":
            (indirect if is_indirect else direct).append(entry)
        else:
            other.append(f"{block} {entry}")
    out = [f"{module or '?'}" + (f" (go {go})" if go else "")]
    out.append(_line("require", direct))
    if indirect:
        out.append(_line("indirect", indirect))
    if other:
        out.append(_line("other directives", other))
    return out


def gemfile(text: str) -> list[str]:
    import re

    groups: dict[str, list[str]] = {}
    stack: list[str] = []
    ruby = ""
    for raw in text.splitlines():
        ln = raw.split("#", 1)[0].strip()
        if not ln:
            continue
        m = re.match(r"group\s+(.+?)\s+do\b", ln)
        if m:
            stack.append(", ".join(g.strip().lstrip(":") for g in m.group(1).split(",")))
            continue
        if ln == "end" and stack:
            stack.pop()
            continue
        m = re.match(r"ruby\s+['\"]([^'\"]+)['\"]", ln)
        if m:
            ruby = m.group(1)
            continue
        m = re.match(r"gem\s+['\"]([^'\"]+)['\"](.*)$", ln)
        if m:
            consts = re.findall(
                r"['\"]([^'\"]+)['\"]", m.group(2).split(":", 1)[0] if "=>" not in m.group(2) else m.group(2)
            )
            opts = [o.strip() for o in m.group(2).split(",") if ":" in o]
            entry = " ".join([m.group(1), *consts, *(f"({o})" for o in opts)])
            groups.setdefault(stack[-1] if stack else "", []).append(entry)
    out = ["(gems)" + (f" ruby {ruby}" if ruby else "")]
    for g, items in groups.items():
        out.append(_line(f"group {g}" if g else "gems", items))
    return out


_PARSERS = {
    "Cargo.toml": cargo, "package.json": package_json, "pyproject.toml": pyproject, "go.mod": go_mod,
    "Gemfile": gemfile,
}  # fmt: skip


def _parser(base: str) -> Any:
    if base in _PARSERS:
        return _PARSERS[base]
    if base.startswith("requirements") and base.endswith(".txt"):
        return requirements
    return None


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("deps", args, {})
    if a.help:
        print(HELP)
        return 0
    if len(a.pos) > 1:
        raise RtkError("deps: give one directory or manifest")
    target = a.pos[0] if a.pos else "."
    if os.path.isdir(target):
        names = sorted(os.listdir(target))
        files = [os.path.join(target, n) for n in names if _parser(n) is not None]
        if not files:
            raise RtkError(f"deps: no dependency manifest in {target} (looked for {', '.join(MANIFESTS)})")
    elif os.path.exists(target):
        if _parser(os.path.basename(target)) is None:
            raise RtkError(f"deps: {target}: not a manifest this command reads ({', '.join(MANIFESTS)})")
        files = [target]
    else:
        raise RtkError(f"deps: {target}: No such file or directory")
    out: list[str] = []
    raw_tokens = 0  # what cat of the manifests would have printed
    code = 0
    for path in files:
        shown = os.path.relpath(path) if not os.path.isabs(target) else path
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            out.append(f"{shown}: cannot read ({e.strerror})")
            code = 1
            continue
        raw_tokens += estimate_shaped(text)
        try:
            lines = _parser(os.path.basename(path))(text)
        except Exception as e:  # a malformed manifest: say so, keep going
            out.append(f"{shown}: cannot parse ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
            code = 1
            continue
        out.append(f"{shown}: {lines[0]}")
        out.extend(lines[1:])
    text = "\n".join(out) + "\n"
    write(text)
    track("deps", args, raw_tokens, estimate_shaped(text), started, code, mode="summary")
    return code
