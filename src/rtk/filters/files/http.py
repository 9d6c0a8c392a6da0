"""Filters for ``curl`` and ``wget``: JSON bodies compacted, every other body handed over byte for byte.

A JSON response body is re-printed compactly (whitespace only; numbers as
written; whole up to ``limits.json_budget`` tokens, above it counted: ``jsonview.compact``). Any
other body (HTML, text, images, archives) is printed verbatim: the exact bytes,
whole. The response body is stdout only; curl's and wget's messages go to
stderr untouched (curl runs with ``-sS`` unless the user chose how it reports,
so the progress meter is gone and errors stay).

Data meant for a program or a file is never touched: curl with ``-o``, ``-O``,
``-D``, ``-w``, ``-i``, ``-I``, ``-v``, ``--trace``... and wget logging to a
file run unfiltered. (rtk cannot tell a pipe to a program from the agent's own
pipe; rewriting ``curl ... | jq`` into ``rtk curl`` is the rewrite layer's
call, which must not do it.) ``wget URL`` saving to a file gets its log
condensed to the URL, the status, the size and where it was saved.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec, Unrecognized, Verbatim
from rtk.text import split_lines

COMMANDS = ("curl", "wget")

# --- curl -----------------------------------------------------------------------------
_CURL_FLAGS = frozenset(
    (
        "-s", "--silent", "-S", "--show-error", "-L", "--location", "-f", "--fail", "--fail-with-body", "-k",
        "--insecure", "-g", "--globoff", "--compressed", "-N", "--no-buffer", "-G", "--get", "--http1.0",
        "--http1.1", "--http2", "--http2-prior-knowledge", "-0", "-4", "-6", "-n", "--netrc", "--no-progress-meter",
        "--location-trusted", "--post301", "--post302", "--post303", "-q", "--disable", "--raw", "--tr-encoding",
        "--no-keepalive", "--path-as-is", "--ssl", "--ssl-reqd", "--fail-early", "-j", "--junk-session-cookies",
    )
)  # fmt: skip
_CURL_VALUE = frozenset(
    (
        "-X", "--request", "-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode",
        "--data-ascii", "--json", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-c",
        "--cookie-jar", "-m", "--max-time", "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time",
        "-x", "--proxy", "-U", "--proxy-user", "--url", "-r", "--range", "-F", "--form", "--form-string", "-E",
        "--cert", "--key", "--cacert", "--capath", "--resolve", "--connect-to", "--oauth2-bearer",
        "--max-redirs", "--limit-rate", "--interface", "--noproxy", "--aws-sigv4", "--variable", "--expect100-timeout",
    )
)  # fmt: skip
_CURL_SHORT_FLAGS = frozenset("sSLfkgNG0146nqj")
_CURL_SHORT_VALUE = frozenset("XHduAebcmxUrFE")
_CURL_REPORTING = ("-s", "--silent", "-S", "--show-error", "--no-progress-meter")


def _curl_args(args: list[str]) -> bool | None:
    """Whether the user chose how curl reports (-s/-S); None when the command must run unfiltered."""
    chose = False
    i = 0
    while i < len(args):
        a = args[i]
        if not a.startswith("-") or a == "-":
            i += 1
            continue
        if a.startswith("--"):
            name, eq, _ = a.partition("=")
            if name in _CURL_VALUE:
                i += 1 if eq else 2
                continue
            if a not in _CURL_FLAGS:
                return None  # -o/--output, -O, -D, -w, -i, -I, -v, --trace, --help... or unknown
            chose = chose or a in _CURL_REPORTING
            i += 1
            continue
        j = 1
        while j < len(a):
            c = a[j]
            if c in _CURL_SHORT_VALUE:
                if j == len(a) - 1:
                    i += 1
                break
            if c not in _CURL_SHORT_FLAGS:
                return None
            chose = chose or c in "sS"
            j += 1
        i += 1
    return chose


# --- wget -----------------------------------------------------------------------------
_WGET_SHORT_FLAGS = frozenset("qvcNrkKmpEHLx46F")
_WGET_SHORT_VALUE = frozenset("OBtTwPUelARDIXQin")
_WGET_FLAGS = frozenset(
    (
        "--quiet", "--verbose", "--no-verbose", "--continue", "--timestamping", "--recursive", "--convert-links",
        "--mirror", "--page-requisites", "--adjust-extension", "--span-hosts", "--relative", "--force-directories",
        "--no-directories", "--no-host-directories", "--no-parent", "--no-clobber", "--no-check-certificate",
        "--spider", "--content-disposition", "--trust-server-names", "--inet4-only", "--inet6-only",
        "--ignore-case", "--no-cookies", "--keep-session-cookies", "--no-cache", "--force-html", "--compression=auto",
    )
)  # fmt: skip
_WGET_VALUE = frozenset(
    (
        "--output-document", "--base", "--tries", "--timeout", "--wait", "--directory-prefix", "--user-agent",
        "--execute", "--level", "--accept", "--reject", "--domains", "--include-directories",
        "--exclude-directories", "--quota", "--input-file", "--header", "--user", "--password", "--http-user",
        "--http-password", "--post-data", "--post-file", "--method", "--body-data", "--referer", "--load-cookies",
        "--save-cookies", "--max-redirect", "--limit-rate", "--ca-certificate", "--certificate", "--private-key",
        "--compression", "--connect-timeout", "--read-timeout", "--dns-timeout",
    )
)  # fmt: skip


def _wget_args(args: list[str]) -> tuple[bool, bool] | None:
    """(body to stdout, user chose the log level), or None to run unfiltered."""
    to_stdout = chose = False
    i = 0
    while i < len(args):
        a = args[i]
        if not a.startswith("-") or a == "-":
            i += 1
            continue
        if a.startswith("--"):
            name, eq, val = a.partition("=")
            if name in _WGET_VALUE:
                if not eq:
                    val = args[i + 1] if i + 1 < len(args) else ""
                    i += 1
                to_stdout = to_stdout or (name == "--output-document" and val == "-")
                i += 1
                continue
            if a not in _WGET_FLAGS:
                return None  # --output-file, --append-output, --debug, --server-response, --help... or unknown
            chose = chose or a in ("--quiet", "--verbose", "--no-verbose")
            i += 1
            continue
        j = 1
        while j < len(a):
            c = a[j]
            if c in _WGET_SHORT_VALUE:
                val = a[j + 1 :]
                if not val:
                    i += 1
                    val = args[i] if i < len(args) else ""
                if c == "O" and val == "-":
                    to_stdout = True
                if c == "n" and val == "v":
                    chose = True
                break
            if c not in _WGET_SHORT_FLAGS:
                return None  # -o/-a (log to a file), -d, -S, -b, -h, -V...
            chose = chose or c in "qv"
            j += 1
        i += 1
    return to_stdout, chose


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    if tool == "curl":
        chose = _curl_args(argv[1:])
        if chose is None:
            return None
        run = None if chose else [argv[0], "-sS", *argv[1:]]
        return Spec("curl", body, run_argv=run, merge_stderr=False)
    parsed = _wget_args(argv[1:])
    if parsed is None:
        return None
    to_stdout, chose = parsed
    if to_stdout:
        run = None if chose else [argv[0], "-nv", *argv[1:]]
        return Spec("wget", body, run_argv=run, merge_stderr=False)
    return Spec("wget", wget_log)


def body(argv: list[str], output: str, exit_code: int) -> Filtered:
    """A response body: compact JSON, or the exact bytes of anything else."""
    if not output.strip() or "\ufffd" in output or "\x00" in output:
        raise Verbatim()
    from rtk.filters import jsonview as _jsonview

    try:
        value = _jsonview.loads(output)
    except ValueError:
        raise Verbatim() from None
    text, cut = _jsonview.compact(value)
    return Filtered(text + "\n", cut)


# --- wget's log ------------------------------------------------------------------------
_DROP = ("Resolving ", "Reusing existing connection", "Saving to: ", "Connecting to ", "Spider mode enabled")


def _undated(s: str) -> str:
    """``2026-11-22 04:30:06 ERROR 404: Not Found.`` -> ``ERROR 404: Not Found.``"""
    if len(s) > 20 and s[4] == "-" and s[7] == "-" and s[10] == " " and s[13] == ":" and s[:4].isdigit():
        return s[20:]
    return s


def wget_log(argv: list[str], output: str, exit_code: int) -> str:
    out: list[str] = []
    known = False
    for ln in split_lines(output):
        s = ln.strip()
        if not s:
            continue
        if ln.startswith("--") and "--  " in ln:
            out.append("GET " + ln.split("--  ", 1)[1])
            known = True
        elif s.startswith("Connecting to ") and not s.endswith("connected."):
            out.append(s)  # "... failed: Connection refused."
        elif s.startswith(_DROP):
            known = True
        elif s.startswith(("HTTP request sent", "Proxy request sent")):
            out.append("  " + s.split("... ", 1)[-1])
            known = True
        elif s.startswith(("Length: ", "Location: ")):
            out.append("  " + s)
        elif s[0].isdigit() and "K " in s and ("%" in s or "." in s.split("K", 1)[1][:12]):
            continue  # progress dots: "     0K .......... .......... 100% 1.2M=0s"
        elif " saved [" in s and " - " in s:
            out.append("  " + s.split(" - ", 1)[1])
            known = True
        else:
            out.append(_undated(s))
    if not known:
        raise Unrecognized("not a wget log")
    return "\n".join(out) + "\n"
