"""Codex CLI sessions: ``<codex home>/sessions/YYYY/MM/DD/rollout-*.jsonl``.

``<codex home>`` is ``$CODEX_HOME`` or ``~/.codex``; ``archived_sessions/`` is read too.
Each line is ``{"timestamp", "type", "payload"}``. Records used (the rest is skipped):

- ``session_meta``: the session ``id`` and ``cwd``; ``turn_context``: the current ``cwd``.
- ``response_item`` ``function_call`` named ``shell`` (Codex up to ~0.9x): ``arguments``
  is a JSON string with ``command`` (an argv such as ``["bash", "-lc", "ls"]``) and
  ``workdir``; its ``function_call_output`` is a JSON string ``{"output", "metadata":
  {"exit_code", "duration_seconds"}}`` (older builds: plain text with ``Exit code: N``).
- ``function_call`` named ``exec_command`` (newer): ``arguments.cmd`` is the command line.
  Its output and the outputs of later ``write_stdin`` calls on the same process read
  ``Process running with session ID N`` / ``Process exited with code N`` /
  ``Original token count: N`` / ``Output:`` followed by what the agent received.
  ``event_msg`` ``exec_command_end`` carries ``exit_code`` and ``aggregated_output``.
- ``local_shell_call`` items (``action.command``) are shell calls too.
- other ``function_call`` / ``custom_tool_call`` names (``apply_patch``, ``update_plan``...)
  are only counted.

Codex writes ``timestamp``, ``type`` and ``payload`` in that order, and the payload's own
``type`` (and ``call_id``) first, so record types are recognised from the first
:data:`HEAD` bytes of a line: a line carrying megabytes of output is never scanned whole.

The output size of a call is what the agent received: the text after ``Output:`` summed
over the call's chunks (the shell form: ``output``); when no chunk was seen, the length
of ``aggregated_output``.
"""

from __future__ import annotations

import os
import re

from rtk.history import Call, Problems, SessionFile, Usage
from rtk.history import projects as _projects
from rtk.history._jsonl import Reader, loads, norm_ts
from rtk.history._pending import Pending
from rtk.text import join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from rtk.history.scan import Scope

NAME = "codex"
LABEL = "Codex CLI"

_CALL_ID = re.compile(rb'"call_id"\s*:\s*"([^"]+)"')
_EXITED = re.compile(r"(?m)^Process exited with code (-?\d+)")
_RUNNING = re.compile(r"(?m)^Process running with session ID (\d+)")
_OLD_EXIT = re.compile(r"(?m)^Exit code: (-?\d+)")
_SHELLS = frozenset(("bash", "sh", "zsh", "dash", "ksh", "fish"))
ERROR_HEAD = 400
HEAD = 320  # bytes of a line holding its type, payload type and call id


def roots() -> list[str]:
    home = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return [os.path.join(home, "sessions"), os.path.join(home, "archived_sessions")]


def files(scope: Scope) -> Iterator[SessionFile]:
    for root in roots():
        for dirpath, dirnames, filenames in _walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if not (name.startswith("rollout-") and name.endswith(".jsonl")):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    mtime = os.stat(path).st_mtime
                except OSError:
                    continue
                if scope.since_epoch is not None and mtime < scope.since_epoch:
                    continue
                yield SessionFile(NAME, path, mtime, _session_from_name(name))


def _walk(root: str) -> Iterator[tuple[str, list[str], list[str]]]:
    if os.path.isdir(root):
        yield from os.walk(root)


def _session_from_name(name: str) -> str:
    # rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl -> the uuid
    stem = name[len("rollout-") : -len(".jsonl")]
    return stem[20:] if len(stem) > 20 else stem


class _State:
    def __init__(self, sf: SessionFile) -> None:
        self.sf = sf
        self.session = sf.session
        self.cwd = ""
        self.pending = Pending()
        self.procs: dict[str, Call] = {}  # process/session id -> exec_command call
        self.polls: dict[str, Call] = {}  # write_stdin call id -> exec_command call
        self.fallback: dict[int, int] = {}  # id(call) -> len(aggregated_output)


def read(
    sf: SessionFile, problems: Problems, *, usage: bool = False, project: str | None = None
) -> Iterator[Call | Usage]:
    """The calls of one rollout file, streamed. ``project``: stop early when the session is elsewhere."""
    r = Reader(sf.path, problems)
    st = _State(sf)
    for raw in r.lines():
        head = raw[:HEAD]  # the record and payload types come first: never scan a long output
        if b'"function_call"' in head or b'"local_shell_call"' in head or b'"custom_tool_call"' in head:
            d = r.parse(raw)
            p = d.get("payload") if d else None
            if isinstance(p, dict) and d is not None:
                _call(st, p, norm_ts(d.get("timestamp")))
        elif b'"function_call_output"' in head:
            ids = _CALL_ID.findall(head)
            if not ids:
                continue
            cid = ids[0].decode("utf-8", "replace")
            if st.pending.get(cid) is None and cid not in st.polls:
                continue
            d = r.parse(raw)
            p = d.get("payload") if d else None
            if isinstance(p, dict) and d is not None:
                _output(st, cid, p, norm_ts(d.get("timestamp")))
        elif b'"exec_command_end"' in head:
            d = r.parse(raw)
            p = d.get("payload") if d else None
            if isinstance(p, dict) and d is not None and p.get("type") == "exec_command_end":
                _end(st, p, norm_ts(d.get("timestamp")))
        elif b'"session_meta"' in head or b'"turn_context"' in head:
            d = r.parse(raw)
            p = d.get("payload") if d else None
            if isinstance(p, dict) and d is not None:
                cwd = p.get("cwd")
                if isinstance(cwd, str) and cwd:
                    st.cwd = cwd
                if d.get("type") == "session_meta":
                    sid = p.get("id")
                    if isinstance(sid, str) and sid:
                        st.session = sid
                    if project and st.cwd and not _projects.under(st.cwd, project):
                        return  # a session of another project
        else:
            continue
        yield from _ready(st)
    for call in st.pending.rest():
        _finish(st, call)
        yield call


def _ready(st: _State) -> Iterator[Call]:
    for call in st.pending.ready():
        _finish(st, call)
        yield call


def _finish(st: _State, call: Call) -> None:
    if call.output_chars is None and id(call) in st.fallback:
        call.output_chars = st.fallback.pop(id(call))
    else:
        st.fallback.pop(id(call), None)
    if call.exit_code is not None and call.failed is None:
        call.failed = call.exit_code != 0


def _command_of(v: object) -> str:
    """A command line from an argv (``["bash", "-lc", "ls"]`` -> ``ls``) or a string."""
    if isinstance(v, str):
        return v
    if isinstance(v, list) and all(isinstance(x, str) for x in v) and v:
        if len(v) == 3 and v[0].rsplit("/", 1)[-1] in _SHELLS and v[1] in ("-lc", "-c", "-l -c"):
            return str(v[2])
        return join([str(x) for x in v])
    return ""


def _call(st: _State, p: dict[str, Any], ts: str) -> None:
    t = p.get("type")
    cid = p.get("call_id") or p.get("id")
    if not isinstance(cid, str):
        return
    if t == "local_shell_call":
        action = p.get("action")
        if not isinstance(action, dict):
            return
        cmd = _command_of(action.get("command"))
        wd = action.get("working_directory")
        _add(st, cid, "shell", cmd, ts, wd if isinstance(wd, str) else "", "local_shell")
        return
    if t not in ("function_call", "custom_tool_call"):
        return
    name = p.get("name")
    if not isinstance(name, str):
        return
    if t == "function_call" and name in ("shell", "container.exec", "exec_command", "write_stdin"):
        args = loads(p["arguments"].encode()) if isinstance(p.get("arguments"), str) else p.get("arguments")
        if not isinstance(args, dict):
            return
        if name == "write_stdin":
            proc = args.get("session_id")
            call = st.procs.get(str(proc))
            if call is not None:
                st.polls[cid] = call
            return
        cmd = _command_of(args.get("cmd") if name == "exec_command" else args.get("command"))
        if not cmd:
            return
        wd = args.get("workdir")
        _add(st, cid, "shell", cmd, ts, wd if isinstance(wd, str) and wd else st.cwd, name)
        return
    call = Call(NAME, st.session, "other", "", ts=ts, cwd=st.cwd, tool=name, tool_id=cid, file=st.sf.path)
    call.done = True
    st.pending.add(cid, call)


def _add(st: _State, cid: str, kind: str, cmd: str, ts: str, cwd: str, tool: str) -> None:
    call = Call(NAME, st.session, kind, cmd, ts=ts, cwd=cwd or st.cwd, tool=tool, tool_id=cid, file=st.sf.path)
    st.pending.add(cid, call)


def _output(st: _State, cid: str, p: dict[str, Any], ts: str) -> None:
    call = st.pending.get(cid) or st.polls.pop(cid, None)
    if call is None:
        return
    out = p.get("output")
    if isinstance(out, dict):  # some builds store {"content": ..., "success": ...}
        c = out.get("content")
        out = c if isinstance(c, str) else ""
    if not isinstance(out, str):
        return
    call.end_ts = ts or call.end_ts
    if call.tool in ("shell", "container.exec", "local_shell"):
        _shell_output(call, out)
        return
    if out.startswith(("exec command rejected", "aborted")):
        call.cancelled = True
        call.done = True
        return
    head, sep, body = out.partition("\nOutput:\n")
    if not sep:
        if out.startswith("write_stdin failed"):
            return
        head, body = out, ""
    call.output_chars = (call.output_chars or 0) + len(body)
    m = _RUNNING.search(head)
    if m:
        st.procs[m.group(1)] = call
    m = _EXITED.search(head)
    if m:
        call.exit_code = int(m.group(1))
        call.failed = call.exit_code != 0
        if call.failed and not call.error_head:
            call.error_head = body[:ERROR_HEAD]
        call.done = True


def _shell_output(call: Call, out: str) -> None:
    call.done = True
    d = loads(out.encode()) if out.startswith("{") else None
    if d is not None and isinstance(d.get("output"), str):
        text = d["output"]
        meta = d.get("metadata")
        code = meta.get("exit_code") if isinstance(meta, dict) else None
    else:
        text = out
        m = _OLD_EXIT.search(out)
        code = int(m.group(1)) if m else None
        if out.startswith(("exec command rejected", "aborted")):
            call.cancelled = True
            return
    call.output_chars = len(text)
    if isinstance(code, int):
        call.exit_code = code
        call.failed = code != 0
        if call.failed:
            call.error_head = text[:ERROR_HEAD]


def _end(st: _State, p: dict[str, Any], ts: str) -> None:
    cid = p.get("call_id")
    call = st.pending.get(cid) if isinstance(cid, str) else None
    if call is None:
        return
    code = p.get("exit_code")
    if isinstance(code, int) and not isinstance(code, bool):
        call.exit_code = code
        call.failed = code != 0
    agg = p.get("aggregated_output")
    if isinstance(agg, str):
        st.fallback[id(call)] = len(agg)
        if call.failed and not call.error_head:
            call.error_head = agg[:ERROR_HEAD]
    call.end_ts = ts or call.end_ts
    proc = p.get("process_id")
    if proc is not None and str(proc) not in st.procs:
        call.done = True  # no later poll can come for a process we never saw running
