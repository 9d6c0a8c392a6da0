"""make's `Entering directory` line goes out before the first shown diagnostic from that directory."""

from __future__ import annotations

from rtk.filters.cc.cc import CcBuild


def shown(lines: list[str], exit_code: int = 2) -> list[str]:
    f = CcBuild(["make", "-k"], "make")
    out: list[str] = []
    for ln in lines:
        text = f.feed(ln)
        if text is not None:
            out.extend(text.split("\n"))
    out.extend(f.finish(exit_code).split("\n"))
    return out


def test_each_failing_subdirectory_is_named_once_and_a_clean_one_not_at_all() -> None:
    out = shown(
        [
            "make[1]: Entering directory '/w/ok'",
            "cc -c ok.c -o ok.o",
            "make[1]: Leaving directory '/w/ok'",
            "make[1]: Entering directory '/w/a'",
            "util.c:3:5: error: 'x' undeclared",
            "util.c:4:5: error: 'y' undeclared",
            "make[1]: *** [Makefile:2: util.o] Error 1",
            "make[1]: Leaving directory '/w/a'",
            "make: *** [Makefile:4: a] Error 2",
            "make[1]: Entering directory '/w/b'",
            "util.c:9:1: error: expected ';'",
            "make[1]: Leaving directory '/w/b'",
        ]
    )
    assert "make[1]: Entering directory '/w/ok'" not in out
    assert out.count("make[1]: Entering directory '/w/a'") == 1
    assert out.count("make[1]: Entering directory '/w/b'") == 1
    a, b = out.index("make[1]: Entering directory '/w/a'"), out.index("make[1]: Entering directory '/w/b'")
    assert a < out.index("util.c:3:5: error: 'x' undeclared") < b < out.index("util.c:9:1: error: expected ';'")
    assert not any("Leaving directory" in ln for ln in out)


def test_leaving_a_nested_directory_returns_to_the_outer_one() -> None:
    out = shown(
        [
            "make[1]: Entering directory '/w/lib'",
            "make[2]: Entering directory '/w/lib/sub'",
            "sub.c:1:1: error: boom",
            "make[2]: Leaving directory '/w/lib/sub'",
            "lib.c:2:2: error: bang",
            "make[1]: Leaving directory '/w/lib'",
        ]
    )
    assert out[:4] == [
        "make[2]: Entering directory '/w/lib/sub'",
        "sub.c:1:1: error: boom",
        "make[1]: Entering directory '/w/lib'",
        "lib.c:2:2: error: bang",
    ]
