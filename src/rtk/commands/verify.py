"""``rtk verify [FILE|NAME]``: run the inline tests of the TOML filters (built-in, user, project)."""

from __future__ import annotations

import os
import sys

from rtk.errors import UsageError

HELP = """\
usage: rtk verify [--require-all] [FILE|NAME]

Run every inline [[tests.NAME]] of the TOML filters (project .rtk/filters/*.toml,
user <config dir>/filters/*.toml and the built-ins): feed each test's input
through its filter and compare with the expected output (trailing newlines
ignored). Prints PASS/FAIL per test, a diff for each failure, and exits 1 if a
test failed or a filter file has errors.

  FILE            only the filters of this .toml file
  NAME            only the filter of this name (in whichever tier defines it)
  --require-all   also fail when a selected filter has no test"""


def main(args: list[str]) -> int:
    require_all = False
    target: str | None = None
    for a in args:
        if a in ("-h", "--help"):
            print(HELP)
            return 0
        if a == "--require-all":
            require_all = True
        elif a.startswith("-"):
            raise UsageError(f"verify: unknown option {a} (see rtk verify --help)")
        elif target is None:
            target = a
        else:
            raise UsageError("verify: give at most one FILE or NAME")
    from rtk.dsl import catalog, deadline, spec, tiers

    if target is not None and (target.endswith(".toml") or os.sep in target):
        if not os.path.isfile(target):
            raise UsageError(f"verify: no such file: {target}")
        tier = tiers.PROJECT if os.path.abspath(target).startswith(tiers.project_dir()) else tiers.USER
        sources = [catalog.file_source(os.path.abspath(target), tier)]
        name = None
    else:
        sources = catalog.all_sources()
        name = target
    passed = failed = 0
    untested: list[str] = []
    errors = 0
    seen_filter = False
    out = sys.stdout
    for src in sources:
        defs = {d["name"]: d for d in src.defs}
        if name is None:
            for level, msg, _ in src.problems:
                print(msg, file=out)
                errors += level == "error"
        for fname, d in defs.items():
            if name is not None and fname != name:
                continue
            seen_filter = True
            tests = [t for t in src.tests if t["filter"] == fname]
            if not tests:
                untested.append(f"{fname} ({catalog.where(src.path)})")
            # A user or project file's regexes run under the same limit as on a command's output.
            limit = 0.0 if src.tier == tiers.BUILTIN else spec.APPLY_LIMIT
            for t in tests:
                label = f"{fname}: {t['name']} ({catalog.where(t['source'] if src.tier != 'builtin' else d['source'])})"
                try:
                    ok, actual = catalog.run_test(d, t, limit)
                except deadline.Timeout as e:
                    failed += 1
                    print(f"FAIL {label}: stopped: {e}", file=out)
                    continue
                if ok:
                    passed += 1
                    print(f"PASS {label}", file=out)
                else:
                    failed += 1
                    print(f"FAIL {label}", file=out)
                    print(catalog.diff(t["expected"], actual), file=out)
    if name is not None and not seen_filter:
        raise UsageError(f"verify: no TOML filter named {name!r} (see rtk filters list)")
    for u in untested:
        print(f"{'FAIL' if require_all else 'note'} no inline test: {u}", file=out)
    summary = f"{passed + failed} tests: {passed} ok, {failed} failing"
    if untested:
        summary += f"; {len(untested)} filters without tests"
    if errors:
        summary += f"; {errors} errors in filter files"
    print(summary, file=out)
    return 1 if failed or errors or (require_all and untested) else 0
