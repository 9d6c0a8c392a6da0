"""History analysis: missed rtk commands, adoption, filter candidates and re-run signals.

Feed :meth:`Analysis.add` every call of a scan, file after file, in call order; read
:meth:`Analysis.report`. Memory holds one small record per group (``git status``,
``jq``...), per session and per day, and a window of the last few rtk runs of the
current file: it does not grow with the size of the history.

Estimated tokens saved for a missed command = ``ceil(output chars / 4)`` of what the
agent received x the savings rate: the weighted rate measured by this user's own rtk
runs of that filter (``sum(saved) / sum(input)``, once it has
:data:`rtk.history.tracked.MIN_MEASURED` runs), else the rule table's estimate, and 0
when rtk would run that form unfiltered. The output of a compound line is shared
evenly among its commands (pipeline consumers, and ``cd``/``echo``-style commands next
to others, get none).

Re-run signal: a command run through rtk, followed within :data:`RERUN_WINDOW` shell
calls of the same transcript (after its result came back) by the same command run raw
(served by the same filter, or the same ``git log``-style key), or by a read of an
rtk recovery file (``.../tee/<epoch>_<program>_<id>.log``, older ``<epoch>_<slug>.log``), suggests the filter lost something.
"""

from __future__ import annotations

import re

from rtk.history import Call
from rtk.history import segments as _segments
from rtk.tee import ID_LEN
from rtk.tee import program as _program
from rtk.text import slug as _slug
from rtk.tracking import mask_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.history.segments import Seg
    from rtk.history.tracked import Tracked

RERUN_WINDOW = 5
TEE_PATH = re.compile(r"[/\\]tee[/\\](\d{9,11})_([A-Za-z0-9._-]+?)(?:_\d{1,2})?\.log")
_NO_SHARE = ("pipeline consumer", "middle of a pipeline")
_RAW = ("missed", "passthrough", "proxy", "disabled")


def tokens(chars: float) -> int:
    return int(-(-chars // 4))


class _Entry:
    """An rtk run still inside the re-run window."""

    __slots__ = ("done_ts", "filter", "index", "key", "program", "slug", "tee")

    def __init__(self, index: int, key: str, filt: str, slug: str, tee: str, done_ts: str, program: str = "") -> None:
        self.index = index
        self.key = key
        self.filter = filt
        self.slug = slug
        self.program = program
        self.tee = tee
        self.done_ts = done_ts


class Session:
    """Per-session figures (``rtk session``)."""

    __slots__ = (
        "agent", "calls", "cwd", "end", "est_missed", "files", "hook", "id", "rewritable", "saved", "shell",
        "start", "sub_cwd", "subagent_shell", "tracked", "untracked_rtk", "via_rtk",
    )  # fmt: skip

    def __init__(self, agent: str, sid: str) -> None:
        self.agent = agent
        self.id = sid
        self.start = self.end = self.cwd = ""
        self.sub_cwd = False  # the project was taken from a subagent file
        self.calls = self.shell = self.subagent_shell = self.rewritable = self.via_rtk = self.hook = 0
        self.saved = self.tracked = self.untracked_rtk = 0
        self.est_missed = 0.0
        self.files: set[str] = set()

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "session": self.id,
            "start": self.start,
            "end": self.end,
            "project": self.cwd,
            "files": len(self.files),
            "tool_calls": self.calls,
            "shell_commands": self.shell,
            "subagent_shell_commands": self.subagent_shell,
            "rewritable": self.rewritable,
            "via_rtk": self.via_rtk,
            "via_hook": self.hook,
            "adoption_pct": _pct(self.via_rtk, self.rewritable),
            "saved_tokens": self.saved,
            "tracked_runs": self.tracked,
            "untracked_rtk_runs": self.untracked_rtk,
            "missed_est_saved_tokens": round(self.est_missed),
        }


def _pct(a: float, b: float) -> float:
    return round(a * 100.0 / b, 1) if b else 0.0


class Analysis:
    def __init__(self, tracked: Tracked, *, sessions: bool = False) -> None:
        self.tracked = tracked
        self.keep_sessions = sessions
        self.sessions: dict[tuple[str, str], Session] = {}
        self.session_keys: set[tuple[str, str]] = set()
        self.files: dict[str, dict[str, int]] = {}
        self.shell = self.cancelled = self.failed = self.reads = 0
        self.by_agent: dict[str, int] = {}
        self.other: dict[str, int] = {}
        self.explicit = self.hook = self.missed_runs = self.on_purpose = 0
        self.missed: dict[
            str, list[Any]
        ] = {}  # key -> [runs, out tokens, est, measured runs, filter, passthrough runs]
        self.candidates: dict[str, list[Any]] = {}  # key -> [runs, out tokens, reason]
        self.by_design: dict[str, int] = {}
        self.ignored: dict[str, list[int]] = {}
        self.reruns: dict[str, list[Any]] = {}  # filter -> [rtk runs, raw re-runs, recovery reads, examples]
        self.daily: dict[str, list[int]] = {}  # day -> [rewritable, via rtk]
        self.rerun_daily: dict[str, list[int]] = {}  # day -> [re-runs and recovery reads, their output tokens]
        self.first = self.last = ""
        self._file = ""
        self._index = 0
        self._window: list[_Entry] = []

    # -- feeding -------------------------------------------------------------

    def add(self, call: Call) -> None:
        if call.file != self._file:
            self._file = call.file
            self._index = 0
            self._window = []
            f = self.files.setdefault(call.agent, {"files": 0, "subagent_files": 0})
            f["subagent_files" if call.subagent else "files"] += 1
        skey = (call.agent, call.session)
        self.session_keys.add(skey)
        sess = self._session(skey, call) if self.keep_sessions else None
        if call.ts:
            if not self.first or call.ts < self.first:
                self.first = call.ts
            if call.ts > self.last:
                self.last = call.ts
        if call.kind == "other":
            self.other[call.tool] = self.other.get(call.tool, 0) + 1
            return
        if call.kind == "read":
            self.reads += 1
            self._recovery(call.command, call)
            return
        if call.cancelled:
            self.cancelled += 1
            return
        self.shell += 1
        self._index += 1
        self.by_agent[call.agent] = self.by_agent.get(call.agent, 0) + 1
        if call.failed:
            self.failed += 1
        if sess is not None:
            sess.shell += 1
            if call.subagent:
                sess.subagent_shell += 1
        if TEE_PATH.search(call.command):
            self._recovery(call.command, call)
        segs = _segments.of(call.command)
        producing = [s for s in segs if s.cls.reason not in _NO_SHARE]
        sharing = [s for s in producing if s.role != "ignored"] or producing
        share = (call.output_chars or 0) / len(sharing) if sharing else 0.0
        day = call.ts[:10]
        entries: list[_Entry] = []
        for s in segs:
            out = share if s in sharing else 0.0
            role = s.role
            if role in ("missed", "passthrough"):
                row = self.tracked.match(s.originals(), call)
                if row is not None:
                    self.hook += 1
                    self._via(s, call, sess, day, row, entries, hook=True)
                    continue
                self._missed(s, out, sess, day)
                self._rerun_check(s, call, out)
            elif role == "rtk":
                self.explicit += 1
                self._via(s, call, sess, day, self.tracked.match(s.originals(), call), entries, hook=False)
            elif role in ("proxy", "disabled"):
                self.on_purpose += 1
                self._rerun_check(s, call, out)
            elif role == "candidate":
                c = self.candidates.setdefault(s.key, [0, 0, s.cls.reason])
                c[0] += 1
                c[1] += tokens(out)
            elif role == "by_design":
                reason = _reason(s.cls.reason)
                self.by_design[reason] = self.by_design.get(reason, 0) + 1
            else:
                g = self.ignored.setdefault(s.key, [0, 0])
                g[0] += 1
                g[1] += tokens(out)
        self._window = [e for e in self._window if self._index - e.index < RERUN_WINDOW] + entries

    def _session(self, skey: tuple[str, str], call: Call) -> Session:
        sess = self.sessions.get(skey)
        if sess is None:
            sess = self.sessions[skey] = Session(*skey)
        sess.calls += 1
        sess.files.add(call.file)
        if call.ts:
            if not sess.start or call.ts < sess.start:
                sess.start = call.ts
            if call.ts > sess.end:
                sess.end = call.ts
        if call.cwd and (not sess.cwd or (sess.sub_cwd and not call.subagent)):
            sess.cwd = call.cwd
            sess.sub_cwd = call.subagent
        return sess

    def _day(self, day: str, via: bool) -> None:
        if not day:
            return
        d = self.daily.setdefault(day, [0, 0])
        d[0] += 1
        d[1] += via

    def _via(
        self,
        s: Seg,
        call: Call,
        sess: Session | None,
        day: str,
        row: dict[str, Any] | None,
        entries: list[_Entry],
        *,
        hook: bool,
    ) -> None:
        filt = (row["filter"] if row and row["filter"] else s.filter) or f"rtk {s.tool}"
        r = self.reruns.setdefault(filt, [0, 0, 0, []])
        r[0] += 1
        self._day(day, True)
        if sess is not None:
            sess.rewritable += 1
            sess.via_rtk += 1
            sess.hook += hook
            if row is not None:
                sess.tracked += 1
                sess.saved += int(row["saved"])
            else:
                sess.untracked_rtk += 1
        tee = str(row["tee_path"]) if row and row["tee_path"] else ""
        entries.append(_Entry(self._index, s.key, filt, _slug(s.argv), tee, call.end_ts, _program(s.argv)))

    def _missed(self, s: Seg, out: float, sess: Session | None, day: str) -> None:
        self.missed_runs += 1
        self._day(day, False)
        g = self.missed.setdefault(s.key, [0, 0, 0.0, 0, s.filter, 0])
        t = tokens(out)
        g[0] += 1
        g[1] += t
        if s.role == "passthrough":
            g[5] += 1
            est = 0.0
        else:
            measured = self.tracked.rate(s.filter)
            if measured is not None:
                g[3] += 1
            est = t * (measured if measured is not None else s.savings) / 100.0
        g[2] += est
        if sess is not None:
            sess.rewritable += 1
            sess.est_missed += est

    def _cost(self, call: Call, out: float) -> None:
        d = self.rerun_daily.setdefault(call.ts[:10], [0, 0])
        d[0] += 1
        d[1] += tokens(out)

    def _rerun_check(self, s: Seg, call: Call, out: float) -> None:
        for e in reversed(self._window):
            if self._index - e.index > RERUN_WINDOW or e.index == self._index:
                continue
            if e.done_ts and call.ts and call.ts < e.done_ts:
                continue  # issued before the rtk run's result came back: not a reaction to it
            if (s.filter and s.filter == e.filter) or s.key == e.key:
                r = self.reruns[e.filter]
                r[1] += 1
                if len(r[3]) < 3:
                    r[3].append(mask_command(s.text))
                self._window.remove(e)
                self._cost(call, out)
                return

    def _recovery(self, text: str, call: Call) -> None:
        m = TEE_PATH.search(text)
        if not m:
            return
        start = m.start()
        # the whole path: back to the start of the word
        while start > 0 and text[start - 1] not in " \t'\"=<>|;&":
            start -= 1
        path = text[start : m.end()]
        owner = self.tracked.tee_owner(path)
        cands = [e for e in self._window if self._index - e.index <= RERUN_WINDOW]
        pick = next((e for e in reversed(cands) if e.tee and e.tee == path), None)
        pick = pick or next((e for e in reversed(cands) if owner and e.filter == owner), None)
        name = m.group(2)
        prog, _, cid = name.rpartition("_")
        if not (len(cid) == ID_LEN and all(c in "0123456789abcdef" for c in cid)):
            prog = ""
        pick = pick or next((e for e in reversed(cands) if e.slug == name or (prog and e.program == prog)), None)
        pick = pick or (cands[-1] if cands else None)
        filt = pick.filter if pick is not None else owner
        if not filt:
            return
        r = self.reruns.setdefault(filt, [0, 0, 0, []])
        r[2] += 1
        self._cost(call, call.output_chars or 0)
        if pick is not None:
            self._window.remove(pick)

    # -- results ---------------------------------------------------------------

    def report(self, limit: int = 15) -> dict[str, Any]:
        via = self.explicit + self.hook
        rewritable = via + self.missed_runs
        missed = [
            {
                "command": mask_command(k),
                "runs": g[0],
                "output_tokens": g[1],
                "est_saved_tokens": round(g[2]),
                "rate_pct": _pct(g[2], g[1]),
                "source": _basis(g),
                "filter": g[4],
            }
            for k, g in self.missed.items()
        ]
        missed.sort(key=lambda m: (-m["est_saved_tokens"], -m["runs"], m["command"]))
        cands = [
            {
                "command": mask_command(k),
                "runs": c[0],
                "output_tokens": c[1],
                "why": "filter not built yet" if "not built" in c[2] else "no rule",
            }
            for k, c in self.candidates.items()
        ]
        cands.sort(key=lambda c: (-c["output_tokens"], -c["runs"], c["command"]))
        reruns: list[dict[str, Any]] = [
            {
                "filter": f,
                "rtk_runs": r[0],
                "raw_reruns": r[1],
                "recovery_reads": r[2],
                "signal_pct": _pct(r[1] + r[2], r[0]),
                "examples": r[3],
            }
            for f, r in self.reruns.items()
        ]
        reruns.sort(key=lambda r: (-(r["raw_reruns"] + r["recovery_reads"]), -r["rtk_runs"], r["filter"]))
        ignored: list[dict[str, Any]] = [
            {"command": mask_command(k), "runs": g[0], "output_tokens": g[1]} for k, g in self.ignored.items()
        ]
        ignored.sort(key=lambda g: (-g["output_tokens"], -g["runs"], g["command"]))
        return {
            "sources": self.files,
            "sessions": len(self.session_keys),
            "first": self.first,
            "last": self.last,
            "shell_commands": self.shell,
            "shell_by_agent": self.by_agent,
            "failed": self.failed,
            "cancelled": self.cancelled,
            "adoption": {
                "rewritable": rewritable,
                "via_rtk": via,
                "explicit": self.explicit,
                "via_hook": self.hook,
                "missed": self.missed_runs,
                "raw_on_purpose": self.on_purpose,
                "rate_pct": _pct(via, rewritable),
            },
            "missed": missed[:limit],
            "missed_total": {
                "commands": len(missed),
                "runs": sum(m["runs"] for m in missed),
                "output_tokens": sum(m["output_tokens"] for m in missed),
                "est_saved_tokens": round(sum(g[2] for g in self.missed.values())),
            },
            "candidates": cands[:limit],
            "candidates_total": {"commands": len(cands), "runs": sum(c["runs"] for c in cands)},
            "by_design": sorted(
                ({"why": mask_command(k), "runs": n} for k, n in self.by_design.items()), key=lambda x: -x["runs"]
            ),
            "ignored": ignored[:limit],
            "reruns": reruns,
            "not_shell": dict(sorted(self.other.items(), key=lambda kv: -kv[1])),
            "file_reads": self.reads,
            "daily": [{"day": d, "rewritable": v[0], "via_rtk": v[1]} for d, v in sorted(self.daily.items())],
            "rerun_daily": [{"day": d, "count": v[0], "tokens": v[1]} for d, v in sorted(self.rerun_daily.items())],
        }


def _basis(g: list[Any]) -> str:
    """How a missed group's estimate was made: rule, measured, passthrough, or a mix (``rule+passthrough``)."""
    runs, measured, passthrough = g[0], g[3], g[5]
    parts = []
    if measured:
        parts.append("measured")
    if runs - passthrough - measured > 0:
        parts.append("rule")
    if passthrough:
        parts.append("passthrough")
    return "+".join(parts)


def _reason(reason: str) -> str:
    """A by-design reason without the command-specific part."""
    if reason.endswith("asks for native output"):
        return "a flag asks for native output"
    if reason.endswith("is interactive") or "never rewritten" in reason:
        return "interactive or never-rewritten form"
    if reason.endswith("must stay raw in a pipeline"):
        return "output must stay raw in a pipeline"
    if reason.endswith("left as written"):
        return "inside a subshell or block"
    if reason.startswith(("rtk read is", "cat with", "head with", "tail with")) or "rtk read does not model" in reason:
        return "a read form rtk read does not model"
    return reason
