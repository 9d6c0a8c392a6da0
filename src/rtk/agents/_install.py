"""Install and uninstall: group artifacts by file, compute every change first, check, back up, then write.

Nothing is written when a target cannot be (a read-only file or directory): one
line per problem, and the files stay as they were. A file that does not parse is
skipped with the snippet to add by hand. Writes are atomic (temporary file and
rename, the file's mode kept) and go through a symbolic link to its target; the
first write to an existing file keeps a backup; the manifest is saved before any
file is written. Uninstall puts the original bytes back only when rtk's write is
all that changed since, and otherwise removes only rtk's part.
"""

from __future__ import annotations

import os
import sys
import time

from rtk import paths
from rtk.agents._artifacts import Artifact, Options, Scope
from rtk.agents._json_edit import EditError
from rtk.agents._manifest import Manifest, install_key, sha256, touch_marker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    from rtk.agents.registry import Integration


def read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None


def peek(path: str) -> bytes | None:
    """``read``, with None for a file that cannot be read (a directory, no permission): for diagnostics."""
    try:
        return read(path)
    except OSError:
        return None


def load(path: str, arts: list[Artifact]) -> Change:
    """The change of ``path``, starting from its bytes; an error when it cannot be read."""
    try:
        return Change(path, arts, read(path))
    except OSError as e:
        c = Change(path, arts, None)
        c.error = f"cannot be read ({e.strerror or e})"
        return c


def short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if path == home or path.startswith(home + os.sep) else path


def say(msg: str = "", err: bool = False) -> None:
    """Print a line; a closed stream (``rtk init | head -1``) silences the rest, the work goes on."""
    stream = sys.stderr if err else sys.stdout
    try:
        print(msg, file=stream, flush=True)
    except (OSError, ValueError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


def real(path: str) -> str:
    """The file a write goes to: the target of a symbolic link (a dotfiles repository), else ``path``."""
    return os.path.realpath(path) if os.path.islink(path) else path


def where(path: str) -> str:
    """``path`` for messages, naming the real file when it is a symbolic link."""
    target = real(path)
    return short(path) if target == path else f"{short(path)} (a link to {short(target)})"


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
    """Why ``path`` cannot be written (or deleted), or "". A symbolic link is judged by its target."""
    if os.path.lexists(path):
        if not os.path.exists(path):
            return "a symbolic link to a missing file"
        if not os.path.isfile(path):
            return "not a regular file"
        # The mode bits too: root may write anything, but a file made read-only says "leave me alone".
        if after is not None and (not os.access(path, os.W_OK) or not os.stat(path).st_mode & 0o200):
            return "the file is read-only"
    path = real(path)  # a write goes to the link's target, in its directory
    d = os.path.dirname(path)
    while d and not os.path.exists(d):
        d = os.path.dirname(d)
    if d and not os.path.isdir(d):
        return f"{short(d)} is not a directory"
    if d and (not os.access(d, os.W_OK | os.X_OK) or not os.stat(d).st_mode & 0o200):
        return f"the directory {short(d)} is read-only"
    return ""


def missing_dirs(path: str) -> list[str]:
    """The directories a write to ``path`` creates, outermost first."""
    out = []
    d = os.path.dirname(real(path))
    while d and not os.path.isdir(d):
        out.append(d)
        d = os.path.dirname(d)
    return out[::-1]


def write(path: str, data: bytes | None, executable: bool = False) -> list[str]:
    """Write (or delete, for None) atomically, through a symbolic link; returns the directories created."""
    if data is None:
        try:
            os.unlink(path)  # a link itself, never its target
        except FileNotFoundError:
            pass
        return []
    path = real(path)
    created: list[str] = []
    for m in missing_dirs(path):
        os.mkdir(m)
        created.append(m)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o755 if executable else 0o644
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.rtk-{os.getpid()}")
    try:
        with os.fdopen(paths.create_new(tmp), "wb") as f:  # never through a symlink planted at the name
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
        self.withheld: list[Artifact] = []  # not written because the same agent's hook could not be

    def errors(self) -> list[Change]:
        return [c for c in self.changes if c.error]


def plan_install(items: list[tuple[Integration, Scope, Options]]) -> Plan:
    """Every change; an agent whose hook file cannot be edited gets none of its other files either
    (a CLAUDE.md saying commands go through rtk while no hook sends them there would be untrue)."""
    plan = _plan([(i, s, o, i.artifacts(s, o)) for i, s, o in items])
    bad = {c.path for c in plan.errors()}
    withheld = [a for _i, _s, _o, arts in plan.installs if any(a.hook and a.path in bad for a in arts)
                for a in arts if not a.hook and a.path not in bad]  # fmt: skip
    if not withheld:
        return plan
    ids = {id(a) for a in withheld}
    again = _plan([(i, s, o, [a for a in arts if id(a) not in ids]) for i, s, o, arts in plan.installs])
    again.installs = plan.installs
    again.withheld = withheld
    return again


def _plan(installs: list[tuple[Integration, Scope, Options, list[Artifact]]]) -> Plan:
    plan = Plan()
    plan.installs = installs
    arts = [a for _i, _s, _o, mine in installs for a in mine]
    for path, group_arts in group(arts).items():
        c = load(path, group_arts)
        if c.error:
            plan.changes.append(c)
            continue
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
            say(f"would {verb}  {where(c.path)}  ({'; '.join(a.describe() for a in c.arts)})")
            say(c.diff().rstrip("\n"))
    for a in plan.withheld:
        say(f"rtk: {short(a.path)}: not {'to be ' if dry_run else ''}written either: without the hook "
            f"it would say something untrue ({a.describe()})")  # fmt: skip


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
        say(line, err=True)
    return 1 if blocked else None


def install(items: list[tuple[Integration, Scope, Options]], dry_run: bool = False) -> int:
    """Install; 0 when every file is in place, 1 when a file had to be skipped or nothing could be written.

    The manifest is saved before any settings file is written (and again after), so an
    install cut short (a closed pipe, ^C) is still recorded and can be uninstalled.
    """
    plan = plan_install(items)
    show_plan(plan, dry_run)
    stop = _before_writing(plan, dry_run)
    if stop is not None:
        return stop
    m = Manifest.load()
    todo = [c for c in plan.changes if c.changed]
    prior: dict[str, dict[str, Any] | None] = {}
    for c in todo:
        rec = m.files.get(c.path)
        prior[c.path] = dict(rec) if rec is not None else None
        if rec is None:
            rec = {"existed": c.before is not None, "backup": None, "sha256": None}
            if c.before is not None:
                rec["backup"] = m.backup(c.path, c.before)
            m.files[c.path] = rec
        rec["sha256"] = sha256(c.after) if c.after is not None else None  # what rtk is about to write
        m.dirs.extend([d for d in missing_dirs(c.path) if d not in m.dirs])
    bad = {c.path for c in plan.errors()}
    skipped = {id(a) for a in plan.withheld}
    before = {k: m.installs.get(k) for k in (install_key(i.name, sc.label) for i, sc, _, _ in plan.installs)}
    _record(m, plan, bad, before, skipped)
    m.save()
    touch_marker()
    bad_write: set[str] = set()
    for c in todo:
        executable = any(getattr(a, "executable", False) for a in c.arts)
        try:
            write(c.path, c.after, executable)
        except OSError as e:
            say(f"rtk: cannot write {short(c.path)}: {e.strerror or e} (the file is unchanged)", err=True)
            bad_write.add(c.path)
            _forget(m, c.path, prior[c.path])
            continue
        say(
            f"{'created' if c.before is None else 'updated'}  {where(c.path)}  ({'; '.join(a.describe() for a in c.arts)})"
        )
    if bad_write:
        bad |= bad_write
        _record(m, plan, bad, before, skipped)
        m.save()
    for integ, scope, _opts, arts in plan.installs:
        where_ = "global" if scope.is_global else short(scope.root)
        missing = sorted({short(a.path) for a in arts if a.path in bad or id(a) in skipped})
        if len(missing) == len({a.path for a in arts}):
            say(f"rtk is not set up for {integ.title} ({where_}): nothing could be written (see above)")
        elif missing:  # never report a set-up that did not happen
            say(
                f"rtk is only partly set up for {integ.title} ({where_}): not written: {', '.join(missing)} (see above)"
            )
        else:
            say(f"rtk is set up for {integ.title} ({where_}); {integ.note}")
    return 1 if bad else 0


def _forget(m: Manifest, path: str, prior: dict[str, Any] | None) -> None:
    """Undo the manifest's record of a write that failed."""
    rec = m.files.get(path)
    if prior is None:
        if rec is not None and rec.get("backup"):
            try:
                os.unlink(rec["backup"])
            except OSError:
                pass
        m.files.pop(path, None)
    else:
        m.files[path] = prior


def _record(m: Manifest, plan: Plan, bad: set[str], before: dict[str, Any], skipped: set[int]) -> None:
    """Record every install whose files (but those in ``bad``) hold rtk's part as planned; an install
    with nothing written keeps its ``before`` record (or none)."""
    from rtk import __version__

    after = {c.path: c.after for c in plan.changes}
    for integ, scope, opts, arts in plan.installs:
        key = install_key(integ.name, scope.label)
        done = [a for a in arts if a.path not in bad and id(a) not in skipped]
        if not done:
            if before.get(key) is None:
                m.installs.pop(key, None)
            else:
                m.installs[key] = before[key]
            continue
        for a in done:  # a file rtk did not write now (already in place) keeps what was recorded
            m.files.setdefault(a.path, {"existed": True, "backup": None, "sha256": None})
        m.installs[key] = {
            "agent": integ.name,
            "scope": "global" if scope.is_global else "project",
            "root": scope.root,
            "options": opts.as_dict(),
            "rtk_version": __version__,
            "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "artifacts": [
                {"path": a.path, "kind": a.kind, "hook": a.hook, "sha256": sha256(a.extract(after[a.path]) or "")}
                for a in done
            ],
        }


def _pristine_base(rec: dict[str, Any] | None, c: Change, others: list[str]) -> bytes | Literal[False] | None:
    """The bytes to restore (None: delete the file rtk created), or False when only rtk's part may go.

    Only when the file is byte-identical to what rtk last wrote, and rtk's part put on the
    backup gives exactly that file: a backup taken before the user's later edits never wins.
    """
    if not rec or others or rec.get("sha256") != sha256(c.before or b""):
        return False
    base = None
    if rec.get("existed"):
        base = read(rec["backup"]) if rec.get("backup") else None
        if base is None:
            return False
    cur = base
    try:
        for a in c.arts:
            cur = a.add(cur)
    except EditError:
        return False
    return base if cur == c.before else False


def _strip(c: Change, rec: dict[str, Any] | None, may_delete: bool) -> tuple[bytes | None, str]:
    """The file without rtk's part (None: delete it, when ``may_delete``, rtk created it and nothing is left)."""
    cur: bytes | None = c.before
    try:
        for a in c.arts:
            cur = a.strip(cur)
    except EditError as e:
        return c.before, f"{e}; remove rtk's part by hand"
    created = (rec is not None and not rec.get("existed")) or all(a.kind == "file" for a in c.arts)
    if may_delete and created and all(a.empty(cur) for a in c.arts):
        return None, ""
    return cur, ""


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
            arts = [a for a in arts if a.extract(peek(a.path)) is not None]
        else:
            recorded = {a["path"] for a in rec["artifacts"]}
            arts = [a for a in arts if a.path in recorded]
        all_arts += [(key, a) for a in arts]
    by_path: dict[str, list[tuple[str, Artifact]]] = {}
    for key, a in all_arts:
        by_path.setdefault(a.path, []).append((key, a))
    for path, pairs in by_path.items():
        c = load(path, [a for _, a in pairs])
        if c.error:
            c.error += "; remove rtk's part by hand"
            plan.changes.append(c)
            continue
        rec = m.files.get(path)
        others = [k for k in m.users(path) if k not in keys]
        shared = {(a["path"], a["kind"]) for k in others for a in m.installs[k]["artifacts"]}
        c.arts = [a for a in c.arts if (a.path, a.kind) not in shared]  # another install still needs it
        if c.before is None or not c.arts:
            plan.changes.append(c)
            continue
        base = _pristine_base(rec, c, others)
        if base is not False:
            c.after = base  # rtk's write is all that changed: the original bytes (or no file) again
        else:
            c.after, c.error = _strip(c, rec, may_delete=not others)
        if c.after is None and os.path.islink(path):  # never delete a link (or its target): empty it
            c.after, c.error = _strip(c, rec, may_delete=False)
        plan.changes.append(c)
    for c in plan.changes:
        if c.error:
            say(f"rtk: {short(c.path)}: {c.error}")
            for a in c.arts:
                say(a.snippet())
        elif c.changed and dry_run:
            say(f"would {'delete' if c.after is None else 'restore' if c.after else 'modify'}  {where(c.path)}")
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
            say(f"rtk: cannot write {short(c.path)}: {e.strerror or e} (the file is unchanged)", err=True)
            failed_paths.add(c.path)
            continue
        rec = m.files.get(c.path)
        restored = rec is not None and rec.get("existed") and c.after == read(rec.get("backup") or "")
        say(f"{'removed' if c.after is None else 'restored' if restored else 'cleaned'}  {where(c.path)}")
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
