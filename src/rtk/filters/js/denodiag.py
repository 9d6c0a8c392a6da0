"""``deno check`` and ``deno lint`` pretty diagnostics, compacted: every code, rule, message, hint and location kept.

``deno check``: one line per diagnostic, ``path:line:col TS1234: message`` (``[ERROR]`` goes, any
other category such as ``[WARNING]`` stays), then
its elaboration lines and each piece of related information with its location
(``'x' is declared here. at shapes.ts:3:3``). ``deno lint``: diagnostics grouped by
rule: the rule's message and hint once when every problem of the rule shares them,
then every ``path:line:col`` (with the message or hint of each problem where they
differ). Both drop what the agent can read in the file: the quoted source lines,
their ``~~~``/``^^^`` markers and gutters, and lint's ``docs:`` links. ``file://``
paths are printed under their shared directory, named once in a ``paths under`` line.
Lines neither shape knows stay as printed; ``Found N ...``/``Checked N files``/``error:``
lines stay.
"""

from __future__ import annotations

import re

from rtk.filters.js.common import common_root

# deno check
_TS_HEAD = re.compile(r"^(TS\d+ \[[A-Z]+\]: .*)$")
_AT = re.compile(r"^(\s*)at (\S+:\d+:\d+)$")
_MARK = re.compile(r"^\s*[~^]+\s*$")
_END = re.compile(r"^(Found \d+ (errors?|problems?)\.?|Checked \d+ files?|error: .*)$")
# deno lint
_RULE_HEAD = re.compile(r"^(error|warning)\[([\w/@.-]+)\]: (.*)$")
_ARROW = re.compile(r"^\s*--> (\S+:\d+:\d+)$")
_GUTTER = re.compile(r"^\s*(>\s*)?\d*\s*\|")  # "  | ", "3 |   let x", "> 3 |   if (x) {", "    |   ^"
_HINT = re.compile(r"^\s*= hint: (.*)$")
_DOCS = re.compile(r"^\s*docs: https?://\S+$")


def _root(locs: list[str]) -> str:
    """The directory the local paths share (``file:///tmp/p/`` or ``/tmp/p/``), or "".

    Other locations (``asset:///lib.d.ts``, a remote module) are printed whole."""
    paths = [loc.rsplit(":", 2)[0] for loc in locs]
    scheme = "file://" if any(p.startswith("file:///") for p in paths) else ""
    files = [p[len(scheme) :] for p in paths if p.startswith(scheme + "/")]
    if not files:
        return ""
    root = common_root(files)
    return scheme + root if root else ""


def _short(loc: str, root: str) -> str:
    return loc[len(root) :] if root and loc.startswith(root) else loc


def _header(root: str) -> list[str]:
    return [f"(paths under {root})"] if root else []


def check(lines: list[str]) -> list[str] | None:
    """Compact ``deno check`` output; None when it holds no ``TS1234 [ERROR]:`` diagnostic."""
    diags: list[tuple[str, list[str]]] = []  # (head, body lines) in order; head "" for a line of its own
    cur: list[str] | None = None
    for i, ln in enumerate(lines):
        m = _TS_HEAD.match(ln)
        if m:
            cur = []
            diags.append((ln, cur))
            continue
        if _END.match(ln) or cur is None:
            cur = None
            if ln.strip():
                diags.append(("", [ln]))
            continue
        if not ln.strip() or _MARK.match(ln):
            continue
        if i + 1 < len(lines) and _MARK.match(lines[i + 1]):
            continue  # the quoted source line over its marker
        cur.append(ln)
    if not any(head for head, _ in diags):
        return None
    locs = [m[2] for _, body in diags for ln in body if (m := _AT.match(ln))]
    root = _root(locs)
    out = _header(root)
    for head, body in diags:
        if not head:
            out.extend(body)
            continue
        text: list[str] = []  # message lines; the first "at" belongs to the diagnostic itself
        loc = ""
        for ln in body:
            m = _AT.match(ln)
            if m and not loc and len(m[1]) <= 4:
                loc = _short(m[2], root)
            elif m and text:
                text[-1] += " at " + _short(m[2], root)
            else:
                text.append("  " + ln.strip())
        if head.startswith("TS") and " [ERROR]: " in head:
            head = head.replace(" [ERROR]: ", ": ", 1)  # errors are the rule ("Found N errors."); others keep their tag
        out.append(f"{loc} {head}" if loc else head)
        out.extend(text)
    return out


class _Problem:
    __slots__ = ("hint", "loc", "more", "msg", "rule", "sev")

    def __init__(self, sev: str, rule: str, msg: str) -> None:
        self.sev, self.rule, self.msg = sev, rule, msg
        self.loc = self.hint = ""
        self.more: list[str] = []  # lines of the block neither shape knows


def lint(lines: list[str]) -> list[str] | None:
    """Compact ``deno lint`` output grouped by rule; None when it holds no ``error[rule]:`` diagnostic."""
    problems: list[_Problem] = []
    tail: list[str] = []  # lines after the problems (summary) or of no problem
    cur: _Problem | None = None
    for ln in lines:
        m = _RULE_HEAD.match(ln)
        if m:
            cur = _Problem(m[1], m[2], m[3])
            problems.append(cur)
            continue
        if cur is None or _END.match(ln):
            cur = None
            if ln.strip():
                tail.append(ln)
            continue
        if not ln.strip() or _DOCS.match(ln):
            continue
        a, h = _ARROW.match(ln), _HINT.match(ln)
        if a and not cur.loc:
            cur.loc = a[1]
        elif h and not cur.hint:
            cur.hint = h[1]
        elif not _GUTTER.match(ln):
            cur.more.append(ln.strip())
    if not problems:
        return None
    root = _root([p.loc for p in problems if p.loc])
    groups: dict[tuple[str, str], list[_Problem]] = {}
    for p in problems:
        p.loc = _short(p.loc, root)
        groups.setdefault((p.sev, p.rule), []).append(p)
    out = _header(root)
    for (sev, rule), ps in groups.items():
        msgs, hints = {p.msg for p in ps}, {p.hint for p in ps}
        same_msg, same_hint = len(msgs) == 1, len(hints) == 1
        count = f" ({len(ps)})" if len(ps) > 1 else ""
        out.append(f"{sev}[{rule}]{count}: {ps[0].msg}" if same_msg else f"{sev}[{rule}]{count}:")
        if same_msg and not any(p.more for p in ps):
            out.append("  " + " ".join(p.loc for p in ps))
        else:
            for p in ps:
                out.append(
                    f"  {p.loc}"
                    + ("" if same_msg else f" {p.msg}")
                    + (f" (hint: {p.hint})" if p.hint and not same_hint else "")
                )
                out.extend("    " + x for x in p.more)
        if same_hint and ps[0].hint:
            out.append(f"  hint: {ps[0].hint}")
    out.extend(tail)
    return out
