"""``rtk gain --html FILE``: one self-contained HTML page of rtk's savings.

Everything is inline (CSS and SVG charts; no script, no font, no image file, no
network: a Content-Security-Policy forbids any fetch). Sections: savings over time,
savings per command, adoption over time (from the agent transcripts) and the
re-run signal per filter.
"""

from __future__ import annotations

import html
import math
from typing import Any

GREEN = "#1f9d6b"
RED = "#d64545"
BLUE = "#3b6fd8"
GREY = "#c9cfd8"
AMBER = "#e0a100"


def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def _n(v: float) -> str:
    return f"{round(v):,}"


def _short(v: float) -> str:
    a = abs(v)
    for div, suf in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if a >= div:
            s = f"{v / div:.1f}".rstrip("0").rstrip(".")
            return s + suf
    return f"{round(v)}"


def _ticks(lo: float, hi: float, n: int = 4) -> list[float]:
    """Round axis values covering ``lo``..``hi`` (the first and last may lie beyond them)."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step + 1e-9) * step
    stop = math.ceil(hi / step - 1e-9) * step
    count = round((stop - start) / step)
    return [round(start + i * step, 10) for i in range(count + 1)]


def _empty(msg: str) -> str:
    return f'<div class="empty">{_e(msg)}</div>'


def _time_chart(days: list[dict[str, Any]]) -> str:
    """Daily saved tokens as signed bars, with the running total as a line."""
    if not days:
        return _empty("No rtk runs recorded in this scope yet.")
    w, h, left, right, top, bottom = 880, 280, 64, 64, 16, 40
    pw, ph = w - left - right, h - top - bottom
    vals: list[float] = [float(d["saved"]) for d in days]
    lo, hi = min(0.0, *vals), max(0.0, *vals)
    if lo == hi:
        hi = 1.0
    ticks = _ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])

    def y(v: float) -> float:
        return top + ph * (hi - v) / (hi - lo)

    cum: list[float] = []
    total = 0.0
    for v in vals:
        total += v
        cum.append(total)
    # The running total shares the bars' zero line: one scale that fits its highs and lows.
    y0 = y(0)
    up, down = max(0.0, *cum), -min(0.0, *cum)
    k = min((y0 - top) / up if up > 0 and y0 > top else math.inf, (top + ph - y0) / down if down > 0 else math.inf)
    if k == math.inf:
        k = (y0 - top) or ph

    def yc(v: float) -> float:
        return y0 - v * k

    n = len(days)
    slot = pw / n
    bw = max(min(slot * 0.7, 36), 1.5)
    parts = [f'<svg viewBox="0 0 {w} {h}" role="img" aria-label="tokens saved per day">']
    for t in ticks:
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 8}" y="{y(t) + 4:.1f}" class="ax" text-anchor="end">{_short(t)}</text>')
    clo, chi = -(top + ph - y0) / k, (y0 - top) / k
    for t in _ticks(clo, chi):
        if t < clo - 1e-9 or t > chi + 1e-9:
            continue
        parts.append(f'<text x="{w - right + 8}" y="{yc(t) + 4:.1f}" class="ax cum">{_short(t)}</text>')
    step = max(1, math.ceil(n / 10))
    for i, d in enumerate(days):
        x = left + slot * i + (slot - bw) / 2
        v = d["saved"]
        b0, b1 = sorted((y(0), y(v)))
        color = GREEN if v >= 0 else RED
        tip = f"{d['period']}: {_n(v)} tokens saved ({d['savings_pct']:.1f}% of {_n(d['input'])}), {d['commands']} runs"
        parts.append(
            f'<rect x="{x:.1f}" y="{b0:.1f}" width="{bw:.1f}" height="{max(b1 - b0, 0.8):.1f}" rx="2" fill="{color}">'
            f"<title>{_e(tip)}</title></rect>"
        )
        if i % step == 0 or i == n - 1:
            parts.append(
                f'<text x="{x + bw / 2:.1f}" y="{h - 14}" class="ax" text-anchor="middle">{_e(d["period"][5:])}</text>'
            )
    pts = " ".join(f"{left + slot * i + slot / 2:.1f},{yc(c):.1f}" for i, c in enumerate(cum))
    parts.append(f'<polyline points="{pts}" fill="none" stroke="{BLUE}" stroke-width="2.5" stroke-linejoin="round"/>')
    if n <= 60:
        for i, c in enumerate(cum):
            parts.append(f'<circle cx="{left + slot * i + slot / 2:.1f}" cy="{yc(c):.1f}" r="3" fill="{BLUE}"/>')
    parts.append(f'<line x1="{left}" x2="{w - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="zero"/>')
    parts.append("</svg>")
    legend = (
        f'<div class="legend"><span><i style="background:{GREEN}"></i>saved per day</span>'
        f'<span><i style="background:{RED}"></i>negative (output grew)</span>'
        f'<span><i style="background:{BLUE}"></i>running total (right axis)</span></div>'
    )
    return "".join(parts) + legend


def _command_bars(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return _empty("No commands recorded yet.")
    top = max(abs(r["saved"]) for r in rows) or 1
    out = ['<div class="hbars">']
    for r in rows:
        frac = abs(r["saved"]) / top
        color = GREEN if r["saved"] >= 0 else RED
        pct = r["savings_pct"]
        out.append(
            '<div class="hb">'
            f'<div class="hb-label" title="{_e(r["command"])}">{_e(r["command"])}</div>'
            f'<div class="hb-track"><div class="hb-bar" style="width:{max(frac * 100, 0.6):.1f}%;background:{color}"></div></div>'
            f'<div class="hb-val">{_n(r["saved"])}</div>'
            f'<div class="hb-meta">{pct:.0f}% of {_n(r["input"])} · {r["count"]} run{"s" if r["count"] != 1 else ""}</div>'
            "</div>"
        )
    out.append("</div>")
    return "".join(out)


def _adoption_chart(days: list[dict[str, Any]]) -> str:
    """Per day: commands rtk serves, split into through rtk and raw; the adoption rate as a line."""
    if not days:
        return _empty("No agent sessions found for this scope (Claude Code, Codex CLI).")
    w, h, left, right, top, bottom = 880, 260, 64, 56, 16, 40
    pw, ph = w - left - right, h - top - bottom
    hi = max(d["rewritable"] for d in days) or 1
    ticks = _ticks(0, hi)
    hi = max(hi, ticks[-1])

    def y(v: float) -> float:
        return top + ph * (hi - v) / hi

    def yp(p: float) -> float:
        return top + ph * (100 - p) / 100

    n = len(days)
    slot = pw / n
    bw = max(min(slot * 0.7, 36), 1.5)
    parts = [f'<svg viewBox="0 0 {w} {h}" role="img" aria-label="adoption per day">']
    for t in ticks:
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 8}" y="{y(t) + 4:.1f}" class="ax" text-anchor="end">{_short(t)}</text>')
    for p in (0, 50, 100):
        parts.append(f'<text x="{w - right + 8}" y="{yp(p) + 4:.1f}" class="ax cum">{p}%</text>')
    step = max(1, math.ceil(n / 10))
    pts = []
    for i, d in enumerate(days):
        x = left + slot * i + (slot - bw) / 2
        via, raw = d["via_rtk"], d["rewritable"] - d["via_rtk"]
        rate = d["via_rtk"] * 100 / d["rewritable"] if d["rewritable"] else 0.0
        tip = f"{d['day']}: {via} of {d['rewritable']} through rtk ({rate:.0f}%)"
        yv = y(via)
        parts.append(
            f'<rect x="{x:.1f}" y="{yv:.1f}" width="{bw:.1f}" height="{y(0) - yv:.1f}" fill="{GREEN}"><title>{_e(tip)}</title></rect>'
        )
        parts.append(
            f'<rect x="{x:.1f}" y="{y(via + raw):.1f}" width="{bw:.1f}" height="{yv - y(via + raw):.1f}" fill="{GREY}">'
            f"<title>{_e(tip)}</title></rect>"
        )
        pts.append(f"{left + slot * i + slot / 2:.1f},{yp(rate):.1f}")
        if i % step == 0 or i == n - 1:
            parts.append(
                f'<text x="{x + bw / 2:.1f}" y="{h - 14}" class="ax" text-anchor="middle">{_e(d["day"][5:])}</text>'
            )
    parts.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{AMBER}" stroke-width="2.5"/>')
    parts.append("</svg>")
    legend = (
        f'<div class="legend"><span><i style="background:{GREEN}"></i>through rtk</span>'
        f'<span><i style="background:{GREY}"></i>ran raw</span>'
        f'<span><i style="background:{AMBER}"></i>adoption rate (right axis)</span></div>'
    )
    return "".join(parts) + legend


def _rerun_table(rows: list[dict[str, Any]], window: int) -> str:
    if not rows:
        return _empty("No command went through rtk in the scanned sessions, so there is nothing to re-run yet.")
    out = [
        '<table class="rr"><thead><tr><th>filter</th><th class="num">rtk runs</th><th class="num">re-run raw</th>'
        '<th class="num">recovery reads</th><th>signal</th></tr></thead><tbody>'
    ]
    for r in rows:
        pct = r["signal_pct"]
        color = GREEN if pct < 5 else (AMBER if pct < 15 else RED)
        few = '<span class="few">few runs</span>' if r["rtk_runs"] < 5 else ""
        out.append(
            f"<tr><td>{_e(r['filter'])}</td><td class='num'>{_n(r['rtk_runs'])}</td>"
            f"<td class='num'>{_n(r['raw_reruns'])}</td><td class='num'>{_n(r['recovery_reads'])}</td>"
            f'<td><div class="sig"><div class="sig-track"><div class="sig-bar" style="width:{min(pct, 100):.1f}%;'
            f'background:{color}"></div></div><span>{pct:.1f}%</span>{few}</div></td></tr>'
        )
    out.append("</tbody></table>")
    out.append(
        f'<p class="note">Signal = (raw re-runs + recovery-file reads) / runs through rtk. A re-run is the same command'
        f" run raw within {window} shell commands of the rtk run, after its result came back; a high signal means the"
        " filter probably hid something the agent needed.</p>"
    )
    return "".join(out)


CSS = """
:root{--bg:#f4f6f9;--card:#fff;--ink:#17202c;--mute:#5d6b7c;--line:#e3e8ef}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
 font:15px/1.5 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif}
header{background:linear-gradient(120deg,#14213d,#1d3f72);color:#fff;padding:28px 40px 72px}
header h1{margin:0;font-size:26px;font-weight:650;letter-spacing:.2px}
header h1 b{color:#7ee0b0}
header p{margin:6px 0 0;color:#c7d3e6;font-size:14px}
main{max-width:1000px;margin:-52px auto 40px;padding:0 20px}
.kpis{display:grid;grid-template-columns:repeat(4,1fr);gap:14px;margin-bottom:18px}
.kpi{background:var(--card);border-radius:12px;padding:16px 18px;box-shadow:0 1px 3px rgba(20,33,61,.08),0 6px 18px rgba(20,33,61,.06)}
.kpi .v{font-size:26px;font-weight:700;letter-spacing:-.3px}
.kpi .l{color:var(--mute);font-size:13px}
.kpi .s{color:var(--mute);font-size:12px;margin-top:2px}
section{background:var(--card);border-radius:12px;padding:20px 22px 16px;margin-bottom:18px;
 box-shadow:0 1px 3px rgba(20,33,61,.08),0 6px 18px rgba(20,33,61,.06)}
section h2{margin:0 0 2px;font-size:17px}
section .sub{margin:0 0 12px;color:var(--mute);font-size:13px}
svg{width:100%;height:auto;display:block}
svg .grid{stroke:var(--line);stroke-width:1}
svg .zero{stroke:#8d99a8;stroke-width:1}
svg .ax{fill:var(--mute);font-size:11px}
svg .cum{fill:#3b6fd8}
.legend{display:flex;gap:18px;color:var(--mute);font-size:12px;margin-top:6px;flex-wrap:wrap}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:-1px}
.hbars{display:grid;gap:8px}
.hb{display:grid;grid-template-columns:170px 1fr 90px 170px;align-items:center;gap:12px;font-size:14px}
.hb-label{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.hb-track{background:#eef1f5;border-radius:6px;height:14px;overflow:hidden}
.hb-bar{height:100%;border-radius:6px}
.hb-val{text-align:right;font-weight:650;font-variant-numeric:tabular-nums}
.hb-meta{color:var(--mute);font-size:12px}
table.rr{width:100%;border-collapse:collapse;font-size:14px}
table.rr th{text-align:left;color:var(--mute);font-weight:600;font-size:12px;border-bottom:1px solid var(--line);padding:6px 8px}
table.rr td{padding:7px 8px;border-bottom:1px solid var(--line)}
table.rr td:first-child{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.num{text-align:right;font-variant-numeric:tabular-nums}
.sig{display:flex;align-items:center;gap:10px}
.sig-track{flex:1;background:#eef1f5;border-radius:6px;height:10px;overflow:hidden;min-width:120px}
.sig-bar{height:100%}
.few{color:var(--mute);font-size:11px;border:1px solid var(--line);border-radius:8px;padding:0 6px}
.note{color:var(--mute);font-size:12px;margin:10px 0 0}
.empty{color:var(--mute);background:#f8fafc;border:1px dashed var(--line);border-radius:10px;padding:28px;text-align:center}
footer{max-width:1000px;margin:0 auto 40px;padding:0 20px;color:var(--mute);font-size:12px}
footer li{margin:3px 0}
@media (max-width:760px){.kpis{grid-template-columns:repeat(2,1fr)}.hb{grid-template-columns:110px 1fr 70px}.hb-meta{display:none}}
"""


def periods(report: dict[str, Any], history: dict[str, Any] | None) -> tuple[str, str]:
    """The period each kind of chart covers: (the tracked savings, the transcripts' adoption and re-runs)."""
    since = report["scope"]["since"]
    daily = report.get("daily") or []
    span = f" ({daily[0]['period']} .. {daily[-1]['period']})" if daily else ""
    saved = f"since {since[:10]}{span}" if since else f"every recorded run{span}"
    if history is None:
        return saved, "not scanned"
    h_since = history["scope"]["since"]
    hist = f"sessions since {h_since[:10]}" if h_since else "every session"
    if h_since and not since:
        hist += " (the last 90 days; --since sets both)"
    return saved, hist


def render(report: dict[str, Any], history: dict[str, Any] | None, generated: str) -> str:
    s = report["summary"]
    where = f"project {report['scope']['project']}" if report["scope"]["project"] else "all projects"
    saved_period, hist_period = periods(report, history)
    scope_txt = f"{where} · savings charts: {saved_period} · adoption and re-runs: {hist_period}"
    adoption = history["adoption"] if history else None
    reruns = history["reruns"] if history else []
    rr_runs = sum(r["rtk_runs"] for r in reruns)
    rr_hits = sum(r["raw_reruns"] + r["recovery_reads"] for r in reruns)
    kpis = [
        (_short(s["total_saved"]), "tokens saved", f"{s['savings_pct']:.1f}% of {_short(s['total_input'])} (weighted)"),
        (
            _n(s["total_commands"]),
            "commands through rtk",
            f"{s['passthrough_commands']} passthrough, {s['failed_commands']} failed",
        ),
        (
            f"{adoption['rate_pct']:.0f}%" if adoption and adoption["rewritable"] else "–",
            "adoption",
            f"{adoption['via_rtk']} of {adoption['rewritable']} agent commands rtk serves"
            if adoption
            else "no transcripts scanned",
        ),
        (
            f"{rr_hits * 100 / rr_runs:.1f}%" if rr_runs else "–",
            "re-run signal",
            f"{rr_hits} re-runs after {rr_runs} rtk runs" if rr_runs else "no rtk runs in transcripts",
        ),
    ]
    kpi_html = "".join(
        f'<div class="kpi"><div class="v">{_e(v)}</div><div class="l">{_e(lbl)}</div><div class="s">{_e(sub)}</div></div>'
        for v, lbl, sub in kpis
    )
    hist_scope = ""
    if history is not None:
        src = ", ".join(f"{a}: {f['files']} files" for a, f in sorted(history["sources"].items())) or "no transcripts"
        hist_scope = f"{history['sessions']} agent sessions ({src})"
    daily = report.get("daily", [])
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        "<title>rtk savings report</title>",
        f"<style>{CSS}</style></head><body>",
        f"<header><h1><b>rtk</b> savings report</h1><p>{_e(scope_txt)} · generated {_e(generated)} UTC</p></header>",
        "<main>",
        f'<div class="kpis">{kpi_html}</div>',
        "<section><h2>Savings over time</h2>"
        f'<p class="sub">Tokens rtk kept out of the agent\'s context per day, and the running total; {_e(saved_period)}.</p>'
        f"{_time_chart(daily)}</section>",
        "<section><h2>Savings per command</h2>"
        f'<p class="sub">Top {len(report["by_command"])} filters by tokens saved; the rate is weighted (saved / raw);'
        f" {_e(saved_period)}.</p>"
        f"{_command_bars(report['by_command'])}</section>",
        "<section><h2>Adoption over time</h2>"
        f'<p class="sub">Agent shell commands rtk serves, on the days with agent sessions: how many went through rtk.'
        f" {_e(hist_scope)}; {_e(hist_period)}.</p>"
        f"{_adoption_chart(history['daily'] if history else [])}</section>",
        "<section><h2>Re-run signal per filter</h2>"
        '<p class="sub">Did the agent run the same command again raw, or open the recovery file, right after rtk?'
        f" {_e(hist_period)}.</p>"
        f"{_rerun_table(reruns, history['rerun_window'] if history else 5)}</section>",
        "</main><footer><ul>",
        "<li>Token figures are estimates of the shell output, not billed tokens: rtk's runs weigh character classes to"
        " match o200k/cl100k (older runs, and the transcripts' outputs: ceil(characters / 4)). Negative savings"
        " (output that grew) are counted, and every rate is weighted: total saved / total raw.</li>",
        "<li>Adoption and re-runs come from the agent transcripts on this machine (Claude Code, Codex CLI); the"
        " agents' own tools (Read, Grep, Glob, subagent tools) never pass through the shell, so rtk cannot see them.</li>",
        "<li>This page was written by <code>rtk gain --html</code>; it loads nothing from the network.</li>",
        "</ul></footer></body></html>",
    ]
    return "\n".join(body) + "\n"
