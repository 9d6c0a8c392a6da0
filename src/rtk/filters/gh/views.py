"""gh view forms (``pr view``, ``issue view``, ``repo view``, ``--comments``): empty fields go, the body stays whole.

On a pipe gh prints ``field:<TAB>value`` lines, a ``--`` line, then the Markdown body.
The filter drops fields without a value (``projects:`` with nothing after it) and the
separator, and keeps every other field and every body line. A pull request or issue
(a ``number`` field) gets a compact header: ``#221 OPEN title``, then the short fields
on one line (``author: a; labels: x, y; milestone: 3.0; +184 -37``), then ``reviewers``,
any long field and ``url`` on lines of their own. With ``--comments`` gh
prints one block per comment or review (``author``, ``association``, ``edited``,
``status``, ``--``, body, ``--``): each becomes one header line, ``author (member):``,
with ``edited`` and ``status`` only when they say something (``edited``, ``approved``).
"""

from __future__ import annotations

from rtk.filterapi import Unrecognized

_COMMENT_FIELDS = ("author", "association", "edited", "status")


def _field(line: str) -> tuple[str, str] | None:
    name, sep, value = line.partition(":\t")
    if not sep and line.endswith(":") and "\t" not in line:
        name, sep, value = line[:-1], ":", ""
    if not sep or not name or " " in name.strip() or not name.replace("-", "").replace("_", "").isalnum():
        return None
    return name, value


# Fields a pull request or issue header says in its own way, or on a line of its own.
_HEAD = ("number", "state", "title")
_OWN_LINE = ("reviewers", "url")
_SHORT = 60  # a field value up to this long joins the shared line


def _header(fields: dict[str, str]) -> list[str]:
    """The fields of a pull request or issue: ``#N STATE title``, short fields on one line, long ones alone."""
    if not (fields.get("number", "").isdigit() and "title" in fields):
        return [f"{k}: {v}" for k, v in fields.items()]
    first = " ".join(x for x in (f"#{fields['number']}", fields.get("state", ""), fields["title"]) if x)
    shared: list[str] = []
    alone: list[str] = []
    adds, dels = fields.get("additions", ""), fields.get("deletions", "")
    counts = adds.isdigit() and dels.isdigit()
    for k, v in fields.items():
        if k in _HEAD or (counts and k in ("additions", "deletions")):
            continue
        if k in _OWN_LINE or len(v) > _SHORT or ";" in v:
            alone.append(f"{k}: {v}")
        else:
            shared.append(f"{k}: {v}")
    if counts:
        shared.append(f"+{adds} -{dels}")
    return [first, *(["; ".join(shared)] if shared else []), *alone]


def _fields_then_body(output: str) -> str:
    lines = output.splitlines()
    fields: dict[str, str] = {}
    i = 0
    while i < len(lines) and lines[i] != "--":
        f = _field(lines[i])
        if f is None:
            raise Unrecognized(f"not a field line: {lines[i][:60]!r}")
        if f[1].strip():
            if f[0] in fields:
                raise Unrecognized(f"field {f[0]} twice")
            fields[f[0]] = f[1]
        i += 1
    if not fields:
        raise Unrecognized("no fields")
    out = _header(fields)
    body = lines[i + 1 :]
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    if body:
        out.append("")
        out += body
    return "\n".join(out) + "\n"


def _comments(output: str) -> str:
    lines = output.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        head: dict[str, str] = {}
        while i < len(lines) and lines[i] != "--":
            f = _field(lines[i])
            if f is None or f[0] not in _COMMENT_FIELDS:
                raise Unrecognized(f"not a comment header: {lines[i][:60]!r}")
            head[f[0]] = f[1]
            i += 1
        if "author" not in head or i >= len(lines):
            raise Unrecognized("a comment without author or body")
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i] != "--":
            body.append(lines[i])
            i += 1
        i += 1  # the closing --
        notes = [head.get("association", "")]
        if head.get("edited", "false") != "false":
            notes.append("edited")
        if head.get("status", "none") not in ("none", ""):
            notes.append(head["status"])
        note = ", ".join(n for n in notes if n)
        if out:
            out.append("")
        out.append(f"{head['author']}" + (f" ({note})" if note else "") + ":")
        while body and not body[-1].strip():
            body.pop()
        out += body or ["(no text)"]
    return "\n".join(out) + "\n"


def view(argv: list[str], output: str, exit_code: int) -> str | None:
    """``gh pr view``, ``gh issue view``, ``gh repo view``: fields with a value, then the body."""
    if exit_code != 0 or not output.strip():
        return None
    if "--comments" in argv[1:] or "-c" in argv[1:]:
        return _comments(output)
    return _fields_then_body(output)
