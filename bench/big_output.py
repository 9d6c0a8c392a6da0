"""Generate a real-shaped big output (build log, pytest -v run, unified diff) to time rtk past its buffer bound.

usage: python bench/big_output.py build|pytest|diff MB > out.txt
  rtk -v pipe < build.txt; rtk -v pipe -f pytest < pytest.txt; a `git` stub that cats diff.txt, then rtk -v git diff.
Line 123,458 carries the fact to keep (a compiler error, a FAILED test, a raised error in the diff).
"""

from __future__ import annotations

import sys


def line(kind: str, n: int) -> str:
    """Line ``n`` (from 0) of an output of this kind."""
    if kind == "build":
        mod = f"src/{['core', 'net', 'db', 'ui', 'util'][n % 5]}/mod_{n % 997}.c"
        if n == 123_457:
            return "src/db/mod_42.c:118:17: error: 'conn' undeclared (first use in this function)\n"
        if n % 3:
            return f"[{n * 100 // 400000:3d}%] Building C object CMakeFiles/app.dir/{mod}.o\n"
        return f'cc -O2 -g -Wall -Iinclude -DVERSION=\\"1.{n % 7}\\" -c {mod} -o build/{mod}.o\n'
    if kind == "pytest":
        st = "FAILED" if n == 123_457 else "PASSED"
        path = f"tests/{['api', 'db', 'core'][n % 3]}/test_mod_{n // 50 % 400}.py"
        return f"{path}::test_case_{n % 50}[param{n % 7}] {st} [{n * 100 // 140000 % 100:3d}%]\n"
    if n == 123_457:
        return "+    raise RuntimeError('credentials rejected by vault for tenant 4412')\n"
    f, k = divmod(n, 2000)
    if k == 0:
        return (
            f"diff --git a/src/m{f}.py b/src/m{f}.py\nindex 1a2b3c{f % 10}..4d5e6f{f % 10} 100644\n"
            f"--- a/src/m{f}.py\n+++ b/src/m{f}.py\n@@ -1,1990 +1,1990 @@\n"
        )
    return f"{'-+ '[k % 3]}    value_{k} = compute(item_{k}, scale={k % 13}, name='row{k}')\n"


def main() -> None:
    kind, limit = sys.argv[1], int(float(sys.argv[2]) * 1_000_000)
    size = n = 0
    while size < limit:
        text = line(kind, n)
        sys.stdout.write(text)
        size += len(text)
        n += 1


if __name__ == "__main__":
    main()
