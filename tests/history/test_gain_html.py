"""rtk gain --html: a self-contained page, checked in a real headless Chromium when one is installed."""

from __future__ import annotations

import html.parser
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest
from histlib import claude_session, install_real, iso, rtk, track
from test_discover import rerun_steps

GREEN = (0x1F, 0x9D, 0x6B)
RED = (0xD6, 0x45, 0x45)
GREY = (0xC9, 0xCF, 0xD8)


def seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real transcripts, a session with rtk runs and a re-run, and three weeks of tracked runs."""
    claude, _ = install_real(tmp_path, monkeypatch)
    now = time.time()
    claude_session(claude, rerun_steps(), cwd="/work/demo", start=now - 2 * 86400)
    # (command, filter, raw tokens, savings rate): git log's output grew (negative savings)
    filters = [("git status", "git-status", 600, 0.7), ("pytest -q", "pytest", 9000, 0.92), ("ls -la", "ls", 400, 0.5),
               ("git log", "git-log", 1500, -0.1), ("cargo build", "cargo-build", 5000, 0.88)]  # fmt: skip
    for day in range(21, 0, -1):
        for k in range(1 + day % 4):
            cmd, filt, tin, rate = filters[(day + k) % len(filters)]
            tin += 37 * day
            track(cmd, filt, tin, round(tin * (1 - rate)), iso(now - day * 86400 + 600 * k)[:19] + "Z", "/work/demo")


class _Scan(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs


def write_page(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "report.html"
    p = rtk("gain", "--html", str(out), *args)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(f"wrote {out} (")
    return out.read_text(encoding="utf-8")


def test_page_is_self_contained_and_complete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(tmp_path, monkeypatch)
    page = write_page(tmp_path, "--since", "2025-01-01")
    s = _Scan()
    s.feed(page)
    assert "script" not in s.tags and "link" not in s.tags and "img" not in s.tags and "iframe" not in s.tags
    assert not any(k in ("src", "href") for k, _ in s.attrs)
    low = page.lower()
    assert "http://" not in low and "https://" not in low and "url(" not in low and "@import" not in low
    assert "content-security-policy" in low and "default-src 'none'" in page
    for title in ("Savings over time", "Savings per command", "Adoption over time", "Re-run signal per filter"):
        assert f"<h2>{title}</h2>" in page
    assert page.count("<rect") > 21  # a bar per day and per adoption day
    assert "git-log" in page and "pytest" in page
    assert '<div class="hb-val">-' in page  # git-log's negative savings, shown as such
    assert "<td>git-log</td><td class='num'>1</td><td class='num'>1</td>" in page  # re-run raw after rtk
    assert "ceil(characters / 4)" in page


def test_other_gain_output_is_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(tmp_path, monkeypatch)
    text = rtk("gain").stdout
    assert "<" not in text and "top 5 by tokens saved" in text
    assert rtk("gain", "--html", str(tmp_path / "no" / "such" / "dir.html")).returncode == 1


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB(A) rows of an 8-bit PNG (the filters undone)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    h = ctype = 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev, strict=True))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def count_color(rows: list[bytes], w: int, bpp: int, rgb: tuple[int, int, int], tol: int = 6) -> int:
    n = 0
    for r in rows:
        for x in range(w):
            px = r[x * bpp : x * bpp + 3]
            if abs(px[0] - rgb[0]) <= tol and abs(px[1] - rgb[1]) <= tol and abs(px[2] - rgb[2]) <= tol:
                n += 1
    return n


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian: apt-get install chromium)")
def test_page_renders_in_headless_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(tmp_path, monkeypatch)
    write_page(tmp_path, "--since", "2025-01-01")
    shot = tmp_path / "report.png"
    assert CHROMIUM is not None
    p = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--disable-extensions", "--force-device-scale-factor=0.5", "--window-size=1100,2100",
         f"--user-data-dir={tmp_path / 'chrome-profile'}", f"--screenshot={shot}",
         (tmp_path / "report.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert shot.exists(), p.stderr[-2000:]
    data = shot.read_bytes()
    w, h, rows = png_pixels(data)
    assert (w, h) == (550, 1050)
    bpp = len(rows[0]) // w
    colors = {rows[y][x * bpp : x * bpp + 3] for y in range(0, h, 3) for x in range(0, w, 3)}
    assert len(colors) > 200  # text, charts and shading, not a blank page
    top = rows[5][w * bpp // 2 : w * bpp // 2 + 3]
    assert top[2] > top[0] and top[0] < 60  # the dark blue header
    assert count_color(rows, w, bpp, GREEN) > 3000  # savings and adoption bars
    assert count_color(rows, w, bpp, RED) > 20  # git-log saves negative: a red bar
    assert count_color(rows, w, bpp, GREY) > 500  # raw commands in the adoption chart


def test_header_states_the_period_of_each_chart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(tmp_path, monkeypatch)
    header = write_page(tmp_path).split("<header>")[1].split("</header>")[0]
    ninety = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 90 * 86400))
    first = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 21 * 86400))
    assert "all projects · savings charts: every recorded run (" + first in header
    assert f"adoption and re-runs: sessions since {ninety} (the last 90 days; --since sets both)" in header
    header = write_page(tmp_path, "--since", "2025-01-01").split("<header>")[1].split("</header>")[0]
    assert "savings charts: since 2025-01-01" in header and "adoption and re-runs: sessions since 2025-01-01" in header
