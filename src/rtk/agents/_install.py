"""Install and uninstall: group artifacts by file, compute every change first, check, back up, then write.

Nothing is written when a target cannot be (a read-only file or directory): one
line per problem, and the files stay as they were. A file that does not parse is
skipped with the snippet to add by hand. Writes are atomic (temporary file and
rename, the file's mode kept); the first write to an existing file keeps a backup.
Uninstall puts the original bytes back when nobody changed the file since, and
otherwise removes only rtk's part.
"""

from __future__ import annotations

import os
import sys
import time

from rtk.agents._artifacts import Artifact, Options, Scope
from rtk.agents._json_edit import EditError
from rtk.agents._manifest import Manifest, install_key, sha256, touch_marker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents.registry import Integration


def read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None


def short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if path == home or path.startswith(home + os.sep) else path


def say(msg: str = "") -> None:
    print(msg, flush=True)


class Change:
    """What happens to one file: its bytes before and after (None: no file), or why it cannot be edited."""

    def __init__(self, path: str, arts: list[Artifact], before: bytes | None) -> None:
        self.path = path
        self.arts = arts
        self.before = before
        self.after = before
        self.error = ""

    @property
    def changed(self) -> bool:
        return not self.error and self.after != self.before

    def diff(self) -> str:
        import difflib

        a = (self.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
        b = (self.after or b"").decode("utf-8", "replace").splitlines(keepends=True)
        head_a = short(self.path) if self.before is not None else "/dev/null"
        head_b = short(self.path) if self.after is not None else "/dev/null"
        lines = list(difflib.unified_diff(a, b, head_a, head_b))
        return "".join(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n" for ln in lines)


def group(arts: list[Artifact]) -> dict[str, list[Artifact]]:
    out: dict[str, list[Artifact]] = {}
    for a in arts:
        out.setdefault(a.path, []).append(a)
    return out


def problem(path: str, after: bytes | None) -> str:
    """Why ``path`` cannot be written (or deleted), or ""."""
    if os.path.lexists(path):
        if not os.path.isfile(path):
            return "not a regular file"
        # The mode bits too: root may write anything, but a file made read-only says "leave me alone".
        if after is not None and (not os.access(path, os.W_OK) or not os.stat(path).st_mode & 0o200):
            return "the file is read-only"
    d = os.path.dirname(path)
    while d and not os.path.exists(d):
        d = os.path.dirname(d)
    if d and not os.path.isdir(d):
        return f"{short(d)} is not a directory"
    if d and (not os.access(d, os.W_OK | os.X_OK) or not os.stat(d).st_mode & 0o200):
        return f"the directory {short(d)} is read-only"
    return ""


def write(path: str, data: bytes | None, executable: bool = False) -> list[str]:
    """Write (or delete, for None) atomically; returns the directories created."""
    if data is None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        return []
    created: list[str] = []
    d = os.path.dirname(path)
    missing = []
    while d and not os.path.isdir(d):
        missing.append(d)
        d = os.path.dirname(d)
    for m in reversed(missing):
        os.mkdir(m)
        created.append(m)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o755 if executable else 0o644
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.rtk-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode | (0o111 if executable else 0))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return created


class Plan:
    """Every file change of an install or uninstall, computed before anything is written."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.installs: list[tuple[Integration, Scope, Options, list[Artifact]]] = []

    def errors(self) -> list[Change]:
        return [c for c in self.changes if c.error]


def plan_install(items: list[tuple[Integration, Scope, Options]]) -> Plan:
    plan = Plan()
    arts: list[Artifact] = []
    for integ, scope, opts in items:
        mine = integ.artifacts(scope, opts)
        plan.installs.append((integ, scope, opts, mine))
        arts += mine
    for path, group_arts in group(arts).items():
        c = Change(path, group_arts, read(path))
        cur = c.before
        try:
            for a in group_arts:
                cur = a.add(cur)
            c.after = cur
        except EditError as e:
            c.error = str(e)
            c.after = c.before
        plan.changes.append(c)
    return plan


def show_plan(plan: Plan, dry_run: bool) -> None:
    for c in plan.changes:
        if c.error:
            say(f"rtk: {short(c.path)}: {c.error}; not touched. Add this by hand:")
            for a in c.arts:
                say(a.snippet())
        elif not c.changed:
            say(f"unchanged  {short(c.path)}")
        elif dry_run:
            verb = "create" if c.before is None else "delete" if c.after is None else "modify"
            say(f"would {verb}  {short(c.path)}  ({'; '.join(a.describe() for a in c.arts)})")
            say(c.diff().rstrip("\n"))


def check_writable(plan: Plan) -> list[str]:
    out = []
    for c in plan.changes:
        if c.changed:
            why = problem(c.path, c.after)
            if why:
                out.append(f"rtk: cannot write {short(c.path)}: {why} (nothing was changed)")
    return out


def _before_writing(plan: Plan, dry_run: bool) -> int | None:
    """The exit code when nothing is to be written (a dry run, or a file that cannot be), else None."""
    if dry_run:
        return 1 if plan.errors() else 0
    blocked = check_writable(plan)
    for line in blocked:
        print(line, file=sys.stderr)
    return 1 if blocked else None


def install(items: list[tuple[Integration, Scope, Options]], dry_run: bool = False) -> int:
    """Install; 0 when every file is in place, 1 when a file had to be skipped or nothing could be written."""
    plan = plan_install(items)
    show_plan(plan, dry_run)
    stop = _before_writing(plan, dry_run)
    if stop is not None:
        return stop
    m = Manifest.load()
    bad_write: set[str] = set()
    for c in plan.changes:
        if not c.changed:
            continue
        rec = m.files.get(c.path)
        if rec is None:
            rec = {"existed": c.before is not None, "backup": None, "sha256": None}
            if c.before is not None:
                rec["backup"] = m.backup(c.path, c.before)
            m.files[c.path] = rec
        executable = any(getattr(a, "executable", False) for a in c.arts)
        try:
            m.dirs.extend(write(c.path, c.after, executable))
        except OSError as e:
            print(f"rtk: cannot write {short(c.path)}: {e.strerror or e} (the file is unchanged)", file=sys.stderr)
            bad_write.add(c.path)
            continue
        say(
            f"{'created' if c.before is None else 'updated'}  {short(c.path)}  ({'; '.join(a.describe() for a in c.arts)})"
        )
    bad = {c.path for c in plan.errors()} | bad_write
    from rtk import __version__

    for integ, scope, opts, arts in plan.installs:
        done = [a for a in arts if a.path not in bad]
        where = "global" if scope.is_global else short(scope.root)
        if not done:
            say(f"rtk is not set up for {integ.title} ({where}): nothing could be written (see above)")
            continue
        for a in done:
            rec = m.files.setdefault(a.path, {"existed": True, "backup": None, "sha256": None})
            rec["sha256"] = sha256(read(a.path) or b"")
        m.installs[install_key(integ.name, scope.label)] = {
            "agent": integ.name,
            "scope": "global" if scope.is_global else "project",
            "root": scope.root,
            "options": opts.as_dict(),
            "rtk_version": __version__,
            "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "artifacts": [
                {"path": a.path, "kind": a.kind, "hook": a.hook, "sha256": sha256(a.extract(read(a.path)) or "")}
                for a in done
            ],
        }
        missing = sorted({short(a.path) for a in arts if a.path in bad})
        if missing:  # never report a set-up that did not happen
            say(f"rtk is only partly set up for {integ.title} ({where}): not written: {', '.join(missing)} (see above)")
        else:
            say(f"rtk is set up for {integ.title} ({where}); {integ.note}")
    m.save()
    touch_marker()
    return 1 if bad else 0


def uninstall(items: list[tuple[Integration, Scope, Options | None]], dry_run: bool = False) -> int:
    """Remove exactly what was installed (original bytes back when the file is untouched since)."""
    m = Manifest.load()
    keys = [install_key(i.name, s.label) for i, s, _ in items]
    plan = Plan()
    all_arts: list[tuple[str, Artifact]] = []
    for (integ, scope, opts), key in zip(items, keys, strict=True):
        rec = m.installs.get(key)
        if opts is None:
            o = rec["options"] if rec else {}
            opts = Options(o.get("command", "rtk"), bool(o.get("block", True)), bool(o.get("suggest", False)))
        arts = integ.artifacts(scope, opts)
        if rec is None:  # not in the manifest: remove whatever rtk-marked part is found
            arts = [a for a in arts if a.extract(read(a.path)) is not None]
        else:
            recorded = {a["path"] for a in rec["artifacts"]}
            arts = [a for a in arts if a.path in recorded]
        all_arts += [(key, a) for a in arts]
    by_path: dict[str, list[tuple[str, Artifact]]] = {}
    for key, a in all_arts:
        by_path.setdefault(a.path, []).append((key, a))
    for path, pairs in by_path.items():
        c = Change(path, [a for _, a in pairs], read(path))
        rec = m.files.get(path)
        others = [k for k in m.users(path) if k not in keys]
        shared = {(a["path"], a["kind"]) for k in others for a in m.installs[k]["artifacts"]}
        c.arts = [a for a in c.arts if (a.path, a.kind) not in shared]  # another install still needs it
        if c.before is None or not c.arts:
            plan.changes.append(c)
            continue
        if rec and not others and rec.get("sha256") == sha256(c.before):
            c.after = read(rec["backup"]) if rec.get("existed") and rec.get("backup") else None
            if rec.get("existed") and c.after is None:
                c.error = "its backup is missing; remove rtk's part by hand"
        else:
            cur: bytes | None = c.before
            try:
                for a in c.arts:
                    cur = a.strip(cur)
            except EditError as e:
                c.error = f"{e}; remove rtk's part by hand"
            created = (rec is not None and not rec.get("existed")) or all(a.kind == "file" for a in c.arts)
            if not c.error and not others and created and all(a.empty(cur) for a in c.arts):
                cur = None
            c.after = cur
        plan.changes.append(c)
    for c in plan.changes:
        if c.error:
            say(f"rtk: {short(c.path)}: {c.error}")
            for a in c.arts:
                say(a.snippet())
        elif c.changed and dry_run:
            say(f"would {'delete' if c.after is None else 'restore' if c.after else 'modify'}  {short(c.path)}")
            say(c.diff().rstrip("\n"))
    stop = _before_writing(plan, dry_run)
    if stop is not None:
        return stop
    failed_paths: set[str] = set()
    for c in plan.changes:
        if not c.changed:
            continue
        try:
            write(c.path, c.after)
        except OSError as e:
            print(f"rtk: cannot write {short(c.path)}: {e.strerror or e} (the file is unchanged)", file=sys.stderr)
            failed_paths.add(c.path)
            continue
        rec = m.files.get(c.path)
        restored = rec is not None and rec.get("existed") and c.after == read(rec.get("backup") or "")
        say(f"{'removed' if c.after is None else 'restored' if restored else 'cleaned'}  {short(c.path)}")
        if rec is not None:
            rec["sha256"] = sha256(c.after) if c.after is not None else None
    for key in keys:
        rec = m.installs.get(key)
        if rec is None or not any(a["path"] in failed_paths for a in rec["artifacts"]):
            m.installs.pop(key, None)  # an install whose file could not be cleaned stays recorded
    kept = []
    for d in sorted(set(m.dirs), key=len, reverse=True):  # deepest first; a directory in use stays
        try:
            os.rmdir(d)
        except FileNotFoundError:
            pass
        except OSError:
            kept.append(d)
    m.dirs[:] = kept
    m.drop_unused_files()
    m.save()
    if not all_arts:
        say("nothing of rtk's was found to remove")
    return 1 if plan.errors() or failed_paths else 0
