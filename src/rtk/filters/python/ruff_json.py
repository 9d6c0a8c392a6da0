"""ruff's JSON report (``--output-format json``, or ``output-format = "json"`` in a config): one line per diagnostic.

Recognised by its content, whatever the command line says: a JSON array whose items
each hold ``code``, ``filename``, ``location`` (``row``, ``column``) and ``message``,
possibly after ruff's own ``warning:``/``error:`` messages (kept whole). Each diagnostic prints as in
ruff's concise text (``path:row:col: CODE [*] message``, ``[*]`` for a safe fix), then
its severity in a tab-separated column (``severity`` in the header line), so the JSON
fact guard finds each row's severity. A diagnostic that none of its own values tells
apart from the others (the same rule and message as another, and no unique line) also
names its rule and link. Fix edits, end locations and the other rows' links go.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_KEYS = ("code", "filename", "location", "message")


class JsonDiag:
    """One diagnostic of the JSON report."""

    __slots__ = ("code", "col", "fix", "line", "msg", "name", "path", "severity", "url")

    def __init__(self, item: dict[str, Any]) -> None:
        loc = item["location"]
        self.path = str(item["filename"])
        self.line, self.col = str(loc["row"]), str(loc["column"])
        self.code = str(item["code"] if item["code"] is not None else item.get("name") or "syntax-error")
        fix = item.get("fix")
        self.fix = isinstance(fix, dict) and fix.get("applicability") == "safe"
        self.msg = str(item["message"])
        self.severity = str(item.get("severity") or "")
        self.name = item.get("name")
        self.url = item.get("url")

    def render(self, extra: str = "") -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.code} {'[*] ' if self.fix else ''}{self.msg}{extra}"
        return f"{text}\t{self.severity}" if self.severity else text


def _diag(item: Any) -> bool:
    if not isinstance(item, dict) or not all(k in item for k in _KEYS):
        return False
    loc = item["location"]
    return isinstance(loc, dict) and isinstance(loc.get("row"), int) and isinstance(loc.get("column"), int)


def read(output: str) -> tuple[list[dict[str, Any]], list[str]] | None:
    """(the report's items, ruff's own warning/error lines before it); None if this is no JSON report."""
    notes: list[str] = []
    pos = 0  # not slicing the rest off each line: copying it again per message line is quadratic
    # ruff's own messages (a deprecated setting...) come first on stderr; their lines go on indented
    while output.startswith(("warning: ", "error: "), pos) or (notes and output.startswith(" ", pos)):
        nl = output.find("\n", pos)
        if nl < 0:
            return None
        notes.append(output[pos:nl])
        pos = nl + 1
    rest = output[pos:]
    if not rest.lstrip().startswith("["):
        return None
    import json

    try:
        items = json.loads(rest)
    except ValueError:
        return None
    if not isinstance(items, list) or not all(_diag(i) for i in items):
        return None
    return items, notes


def _texts(item: dict[str, Any]) -> set[str]:
    """The item's own scalar values as text (what tells one diagnostic from another)."""
    return {str(v) for k, v in item.items() if k != "severity" and isinstance(v, str | int) and not isinstance(v, bool)}


def render(items: list[dict[str, Any]], cap: int) -> tuple[list[str], list[JsonDiag]]:
    """The lines of the first ``cap`` diagnostics (a header first if any) and every diagnostic parsed."""
    diags = [JsonDiag(i) for i in items]
    counts: dict[str, int] = {}
    texts = [_texts(i) for i in items]
    for ts in texts:
        for t in ts:
            counts[t] = counts.get(t, 0) + 1
    out: list[str] = []
    for d, ts in list(zip(diags, texts, strict=True))[:cap]:
        alone = any(len(t) >= 3 and counts[t] == 1 for t in ts)
        extra = "" if alone or not (d.name or d.url) else f" ({', '.join(str(x) for x in (d.name, d.url) if x)})"
        out.append(d.render(extra))
    if any(d.severity for d in diags[:cap]):
        out.insert(0, "path:row:col: code [*] message\tseverity")
    return out, diags
