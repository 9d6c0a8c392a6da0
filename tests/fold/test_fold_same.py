"""Differential test of the fold's speed work: every output folds to the same bytes as before it (a table of hashes).

The table (fold_same.json) was recorded with the code before the fast paths of session "foldspeed"
(``python tests/fold/test_fold_same.py --record`` on main cd9fca1), and is recorded again (same command, run
from tests/fold) by a change that means to alter the fold's output, in the commit that says so. Each input is folded every
way the fold runs: line by line, by block, live (one block and blocks of 997 lines), and through
``rtk read`` and ``rtk run`` for the logs. Inputs: every tests/logdata log, every fixture's raw
output, and the generated benchmark inputs (bench/fold.py, bench/fold_jsonl.py, bench/big_output.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from foldways import by_block, by_line, live

from rtk.fold.live import FoldStream

ROOT = Path(__file__).resolve().parent.parent.parent
TABLE = Path(__file__).resolve().parent / "fold_same.json"


def live_chunks(lines: list[str]) -> list[str]:
    fs = FoldStream(["cat", "x.log"])
    out = [fs.feed_block(lines[i : i + 997]) for i in range(0, len(lines), 997)]
    out.append(fs.finish(0))
    return "\n".join(o for o in out if o is not None).splitlines()


WAYS: dict[str, Callable[[list[str]], list[str]]] = {
    "line": by_line,
    "block": by_block,
    "live": live,
    "live997": live_chunks,
}


def _bench(name: str) -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def generated() -> Iterator[tuple[str, bytes]]:
    """The benchmark inputs, at small sizes."""
    fold = _bench("fold")
    lines = fold._lines()  # type: ignore[attr-defined]
    yield "bench:app-2000.log", b"".join(b"%s\n" % ln for ln in lines[:2000])
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "s.log"
        fold.write_log(p, 2 << 20, lines)  # type: ignore[attr-defined]
        yield "bench:stream-2MiB.log", p.read_bytes()
    yield "bench:app-json-2000.log", _bench("fold_jsonl").json_log()  # type: ignore[attr-defined]
    big = _bench("big_output")
    for kind in ("build", "pytest", "diff"):
        size = n = 0
        parts = []
        while size < 400_000:
            t = big.line(kind, n)  # type: ignore[attr-defined]
            parts.append(t)
            size += len(t)
            n += 1
        yield f"bench:big-{kind}", "".join(parts).encode()


def inputs() -> Iterator[tuple[str, bytes, bool]]:
    """(name, bytes, whether it is run through ``rtk read`` and ``rtk run`` too)."""
    for p in sorted((ROOT / "tests" / "logdata").glob("*.log")):
        yield f"logdata:{p.name}", p.read_bytes(), True
    for p in sorted((ROOT / "tests" / "fixtures").rglob("*.raw")):
        yield f"fixture:{p.relative_to(ROOT / 'tests' / 'fixtures')}", p.read_bytes(), False
    for name, data in generated():
        yield name, data, True


def _h(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()[:20]


def _cli(args: list[str], env: dict[str, str]) -> bytes:
    return subprocess.run([sys.executable, "-m", "rtk", *args], capture_output=True, env=env, check=False).stdout


def hashes(env: dict[str, str]) -> dict[str, str]:
    got: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, cli in inputs():
            lines = data.decode("utf-8", "surrogateescape").splitlines()
            for way, fn in WAYS.items():
                got[f"{name}|{way}"] = _h("\n".join(fn(lines)).encode("utf-8", "surrogateescape"))
            if cli:
                p = Path(tmp) / (name.split(":", 1)[1].replace("/", "_") + ("" if name.endswith(".log") else ".log"))
                p.write_bytes(data)
                got[f"{name}|read"] = _h(_cli(["read", str(p)], env).replace(str(p).encode(), b"FILE"))
                got[f"{name}|run"] = _h(_cli(["run", "-c", f"cat {p}"], env).replace(str(p).encode(), b"FILE"))
    return got


@pytest.mark.skipif(os.environ.get("RTK_SKIP_SAME") == "1", reason="asked")
def test_every_input_folds_to_the_recorded_bytes() -> None:
    want = json.loads(TABLE.read_text())
    got = hashes(dict(os.environ))
    assert set(want) <= set(got)  # an input gone: record the table again; a new one is checked once recorded
    differ = sorted(k for k in want if got[k] != want[k])
    assert not differ, f"{len(differ)} outputs changed: {differ[:20]}"


if __name__ == "__main__" and "--record" in sys.argv:
    home = tempfile.mkdtemp()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RTK_")}
    env |= {"HOME": home, "XDG_CONFIG_HOME": home + "/c", "XDG_DATA_HOME": home + "/d", "XDG_CACHE_HOME": home + "/e"}
    TABLE.write_text(json.dumps(hashes(env), indent=0, sort_keys=True) + "\n")
