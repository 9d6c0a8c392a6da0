"""Which sessions belong to a project: Claude Code's directory slugs, and path containment.

Claude Code keeps a project's sessions in ``<config>/projects/<slug>/``, where the
slug is the working directory with every character other than an ASCII letter,
digit or ``-`` replaced by ``-``: ``/home/me/my_app.v2`` -> ``-home-me-my-app-v2``
(``/``, ``.``, ``_``, spaces, ``\\`` and non-ASCII characters all become ``-``).
The encoding loses information (``/a/b-c`` and ``/a/b/c`` share a slug), so the
slug only picks the candidate directories; each call's own ``cwd`` field then
decides: a call belongs to project ``P`` when its working directory is ``P`` or
below it (``/a/b`` matches ``/a/b`` and ``/a/b/src``, never ``/a/bc``).
Windows paths compare case-insensitively with either separator.
"""

from __future__ import annotations


def slug(path: str) -> str:
    """Claude Code's directory name for a project path."""
    return "".join(c if (c.isascii() and (c.isalnum() or c == "-")) else "-" for c in path)


def slug_may_hold(dir_name: str, project: str) -> bool:
    """Can the slug directory ``dir_name`` hold sessions run in ``project`` or below it?"""
    s = slug(project.rstrip("/\\") or project)
    a, b = (dir_name.lower(), s.lower()) if _windows(project) else (dir_name, s)
    return a == b or a.startswith(b + "-")


def _windows(path: str) -> bool:
    return (len(path) >= 2 and path[1] == ":") or "\\" in path


def under(path: str, project: str) -> bool:
    """Is ``path`` the directory ``project`` or inside it?"""
    if not path:
        return False
    if _windows(project) or _windows(path):
        path = path.replace("\\", "/").lower()
        project = project.replace("\\", "/").lower()
    root = project.rstrip("/")
    if not root:
        return path.startswith("/")
    return path == root or path.startswith(root + "/")
