"""Claude Code sessions: ``<config>/projects/<slug>/<session>.jsonl`` and their subagent files.

``<config>`` is ``$CLAUDE_CONFIG_DIR`` (several directories may be given, separated by
commas) or ``~/.claude``. Subagent (sidechain) transcripts live in
``<slug>/<session>/subagents/*.jsonl`` and count for their parent session.

Records used (everything else is skipped unparsed):

- ``assistant`` lines: ``message.content[]`` blocks ``{"type": "tool_use", "id", "name",
  "input"}``; ``Bash`` is a shell call (``input.command``), ``Read`` a file read
  (``input.file_path``), any other name only counted. ``message.usage`` with
  ``message.id`` and ``requestId`` gives the token usage: one request is written on
  several lines (one per content block), so lines sharing the id are merged, keeping the
  largest value of each field (the last line carries the final output count).
- ``user`` lines: ``message.content[]`` blocks ``{"type": "tool_result", "tool_use_id",
  "content", "is_error"}``. A failed Bash call reads ``Error: Exit code N`` (or ``Exit
  code N``); a call that never ran reads ``Sibling tool call errored`` or the user's refusal.
- ``progress`` lines (hook progress) are skipped: subagent calls are read from their own files.
"""

from __future__ import annotations

import os
import re

from rtk.history import Call, Problems, SessionFile, Usage
from rtk.history import projects as _projects
from rtk.history._jsonl import Reader, norm_ts, text_of
from rtk.history._pending import Pending

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from rtk.history.scan import Scope

NAME = "claude"
LABEL = "Claude Code"

_IDS = re.compile(rb'"tool_use_id"\s*:\s*"([^"]+)"')
_EXIT = re.compile(r"^(?:Error: )?Exit code (\d+)")
_CANCELLED = (
    "Sibling tool call errored",
    "The user doesn't want to proceed",
    "The user doesn't want to take this action",
    "[Request interrupted",
    "Permission to use Bash has been denied",
)
_WRAPPED = tuple("<tool_use_error>" + c for c in _CANCELLED)
ERROR_HEAD = 400


def roots() -> list[str]:
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    if env:
        return [p.strip() for p in env.split(",") if p.strip()]
    return [os.path.join(os.path.expanduser("~"), ".claude")]


def files(scope: Scope) -> Iterator[SessionFile]:
    """Every session file (and subagent file) that may hold calls in ``scope``."""
    for root in roots():
        base = os.path.join(root, "projects")
        try:
            dirs = sorted(os.scandir(base), key=lambda e: e.name)
        except OSError:
            continue
        for d in dirs:
            if not d.is_dir():
                continue
            if scope.project and not _projects.slug_may_hold(d.name, scope.project):
                continue
            yield from _session_files(d.path, d.name, scope)


def _session_files(path: str, slug: str, scope: Scope) -> Iterator[SessionFile]:
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return
    for e in entries:
        if e.name.endswith(".jsonl") and e.is_file():
            mtime = _mtime(e.path)
            if scope.since_epoch is None or mtime >= scope.since_epoch:
                yield SessionFile(NAME, e.path, mtime, e.name[:-6], slug)
        elif e.is_dir():
            sub = os.path.join(e.path, "subagents")
            try:
                subs = sorted(os.scandir(sub), key=lambda s: s.name)
            except OSError:
                continue
            for s in subs:
                if s.name.endswith(".jsonl") and s.is_file():
                    mtime = _mtime(s.path)
                    if scope.since_epoch is None or mtime >= scope.since_epoch:
                        yield SessionFile(NAME, s.path, mtime, e.name, slug, subagent=True)


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def read(
    sf: SessionFile, problems: Problems, *, usage: bool = False, project: str | None = None
) -> Iterator[Call | Usage]:
    """The calls (and with ``usage``, the token usage) of one transcript file, streamed.

    ``project`` is not used here: the caller filters on each call's ``cwd``.
    """
    r = Reader(sf.path, problems)
    pending = Pending()
    usages: dict[str, Usage] = {}
    for raw in r.lines():
        if b'"tool_use"' in raw or (usage and b'"usage"' in raw):
            d = r.parse(raw)
            if d is None or d.get("type") != "assistant":
                continue
            msg = d.get("message")
            if not isinstance(msg, dict):
                continue
            _calls(d, msg, sf, pending)
            if usage:
                _usage(d, msg, sf, usages)
            yield from pending.ready()
        elif b'"tool_use_id"' in raw and pending.calls:
            if not any(m.decode("utf-8", "replace") in pending.calls for m in _IDS.findall(raw)):
                continue  # results of calls we do not follow (Read contents, Grep...)
            d = r.parse(raw)
            if d is None:
                continue
            msg = d.get("message")
            if isinstance(msg, dict):
                _results(d, msg, pending)
            yield from pending.ready()
    yield from pending.rest()
    yield from usages.values()


def _calls(d: dict[str, Any], msg: dict[str, Any], sf: SessionFile, pending: Pending) -> None:
    content = msg.get("content")
    if not isinstance(content, list):
        return
    ts = ""
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            continue
        if not ts:
            ts = norm_ts(d.get("timestamp"))
        name = block.get("name")
        inp = block.get("input")
        tid = block.get("id")
        if not isinstance(name, str) or not isinstance(tid, str) or not isinstance(inp, dict):
            continue
        if name == "Bash":
            cmd = inp.get("command")
            if not isinstance(cmd, str):
                continue
            kind, text = "shell", cmd
        elif name == "Read":
            fp = inp.get("file_path")
            kind, text = "read", fp if isinstance(fp, str) else ""
        else:
            kind, text = "other", ""
        cwd = d.get("cwd")
        session = d.get("sessionId")
        call = Call(
            NAME,
            session if isinstance(session, str) and session else sf.session,
            kind,
            text,
            ts=ts,
            cwd=cwd if isinstance(cwd, str) else "",
            tool=name,
            tool_id=tid,
            file=sf.path,
            subagent=sf.subagent or d.get("isSidechain") is True,
        )
        # A read of an rtk recovery file is a re-run signal: wait for its result to know its size.
        call.done = kind == "other" or (kind == "read" and "tee" not in text)
        pending.add(tid, call)


def _results(d: dict[str, Any], msg: dict[str, Any], pending: Pending) -> None:
    content = msg.get("content")
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        tid = block.get("tool_use_id")
        call = pending.get(tid) if isinstance(tid, str) else None
        if call is None or call.done:
            continue
        text = text_of(block.get("content"))
        call.end_ts = norm_ts(d.get("timestamp"))
        call.output_chars = len(text)
        call.done = True
        if call.kind != "shell":
            continue
        if text.startswith(_CANCELLED) or text.startswith(_WRAPPED):
            call.cancelled = True
            continue
        if block.get("is_error") is True:
            call.failed = True
            m = _EXIT.match(text)
            if m:
                call.exit_code = int(m.group(1))
            call.error_head = text[:ERROR_HEAD]
        else:
            call.failed = False


def _usage(d: dict[str, Any], msg: dict[str, Any], sf: SessionFile, usages: dict[str, Usage]) -> None:
    u = msg.get("usage")
    model = msg.get("model")
    if not isinstance(u, dict) or not isinstance(model, str) or model.startswith("<"):
        return  # "<synthetic>": messages Claude Code wrote itself, not billed
    mid = msg.get("id")
    rid = d.get("requestId")
    key = f"{mid}:{rid}" if isinstance(mid, str) else f"{sf.path}:{d.get('uuid')}"
    rec = usages.get(key)
    if rec is None:
        session = d.get("sessionId")
        cwd = d.get("cwd")
        rec = Usage(
            key,
            norm_ts(d.get("timestamp")),
            model,
            session if isinstance(session, str) else sf.session,
            cwd if isinstance(cwd, str) else "",
        )
        usages[key] = rec
    rec.input = max(rec.input, _int(u.get("input_tokens")))
    rec.output = max(rec.output, _int(u.get("output_tokens")))
    rec.cache_read = max(rec.cache_read, _int(u.get("cache_read_input_tokens")))
    cc = u.get("cache_creation")
    total_write = _int(u.get("cache_creation_input_tokens"))
    if isinstance(cc, dict):
        h1 = _int(cc.get("ephemeral_1h_input_tokens"))
        m5 = _int(cc.get("ephemeral_5m_input_tokens"))
        if h1 + m5 < total_write:
            m5 = total_write - h1
        rec.cache_write_1h = max(rec.cache_write_1h, h1)
        rec.cache_write_5m = max(rec.cache_write_5m, m5)
    else:
        rec.cache_write_5m = max(rec.cache_write_5m, total_write)


def _int(v: object) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0
