"""Filter for the listing form of ``env``: sorted, secret values masked, PATH-like lists de-duplicated.

Only ``env`` that prints the environment is filtered (``env``, ``env -u X``,
``env A=1``). ``env A=1 cmd`` runs a command and is passed through live and
untouched; so are ``env -0`` and flags not known here. Values of
secret-looking names (``*_TOKEN``, ``*PASSWORD*``, ``*_KEY``...) and
credential-shaped values (URL passwords, GitHub/AWS/OpenAI token shapes) are
masked as ``****`` (empty values stay empty, so "set but empty" still shows),
always: when the compact form would not be smaller, the listing is printed in
its own order, still masked.
PATH-like lists lose repeated entries (the first one wins anyway), and colour
tables such as ``LS_COLORS`` are folded to their length.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.text import plural, split_lines

COMMANDS = ("env",)

MASK = "****"
_SECRET_PARTS = frozenset(
    (
        "KEY", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PWD", "TOKEN", "TOKENS", "CREDENTIAL",
        "CREDENTIALS", "AUTH", "PRIVATE", "JWT", "COOKIE", "APIKEY", "SIGNATURE", "PAT", "DSN",
    )
)  # fmt: skip
_SECRET_SUBSTR = ("SECRET", "TOKEN", "PASSWORD", "PASSWD", "APIKEY", "API_KEY", "ACCESS_KEY", "PRIVATE_KEY")
_NOT_SECRET = frozenset(("PWD", "OLDPWD", "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "XAUTHORITY", "KEYMAP"))
_COLOUR_TABLES = frozenset(("LS_COLORS", "LSCOLORS", "TERMCAP", "GREP_COLORS", "EXA_COLORS", "EZA_COLORS"))
_PATH_LIKE = frozenset(
    (
        "PATH", "MANPATH", "INFOPATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PYTHONPATH", "PKG_CONFIG_PATH",
        "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "CLASSPATH", "NODE_PATH", "CDPATH", "FPATH", "PERL5LIB",
        "GOPATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
    )
)  # fmt: skip


def _listing_form(args: list[str]) -> bool:
    """True when ``env args`` prints the environment rather than running a command."""
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-i", "--ignore-environment", "-"):
            i += 1
        elif a in ("-u", "--unset"):
            i += 2
        elif a.startswith("--unset=") or (a.startswith("-u") and len(a) > 2) or (not a.startswith("-") and "=" in a):
            i += 1
        else:
            return False  # a command to run, -0, -C, -S, --help... : not a listing we read
    return True


def select(argv: list[str]) -> Spec | None:
    # `env A=1 cmd` runs cmd: None means it runs live, streams inherited, untouched.
    return Spec("env", env, merge_stderr=False) if _listing_form(argv[1:]) else None


def is_secret(name: str) -> bool:
    up = name.upper()
    if up in _NOT_SECRET:
        return False
    if any(s in up for s in _SECRET_SUBSTR):
        return True
    return any(p in _SECRET_PARTS for p in up.replace("-", "_").split("_"))


def _valid_name(name: str) -> bool:
    return bool(name) and not name[0].isdigit() and all(c.isalnum() or c in "_%.-:" for c in name)


def env(argv: list[str], output: str, exit_code: int) -> Filtered:
    from rtk.tracking.mask import mask

    entries: list[tuple[str, str]] = []
    lead: list[str] = []  # lines before the first NAME=value (a message): shown first, masked
    for ln in split_lines(output):
        name, eq, value = ln.partition("=")
        if eq and _valid_name(name):
            entries.append((name, value))
        elif entries:
            # a value with newlines (exported shell functions, multi-line strings)
            entries[-1] = (entries[-1][0], entries[-1][1] + "\n" + ln)
        else:
            lead.append(mask(ln))
    if not entries:
        if not lead:
            raise Unrecognized("no output")
        # Not a listing: still never print a credential in clear (masking is not a compression).
        text = "".join(ln + "\n" for ln in lead)
        return Filtered(text, 0, text)

    out: list[str] = []
    masked = 0
    folded: list[str] = []
    deduped = 0
    for name, value in sorted(entries, key=lambda kv: kv[0]):
        if value and is_secret(name):
            value = MASK
            masked += 1
        elif name in _COLOUR_TABLES and len(value) > 40:
            value = f"({len(value)} chars of colour codes, not shown)"
            folded.append(name)
        elif (name in _PATH_LIKE or name.endswith(("_PATH", "PATH", "_DIRS"))) and ":" in value:
            parts = value.split(":")
            seen: list[str] = []
            for p in parts:
                if p not in seen:
                    seen.append(p)
            if len(seen) < len(parts):
                deduped += len(parts) - len(seen)
                value = (
                    ":".join(seen)
                    + f"  ({plural(len(parts) - len(seen), 'repeated entry', 'repeated entries')} dropped)"
                )
        else:
            m = mask(value)  # credential shapes inside any value: URL passwords, token formats
            if m != value:
                value = m
                masked += 1
        out.append(f"{name}={value}")
    notes = [plural(len(entries), "variable")]
    if masked:
        notes.append(f"{masked} secret {'value' if masked == 1 else 'values'} masked")
    if folded:
        notes.append(f"{', '.join(folded)} folded")
    if deduped:
        notes.append(f"{deduped} repeated path entries dropped")
    body = "".join(ln + "\n" for ln in lead) + "\n".join(out) + "\n"
    with_notes = body + "[" + "; ".join(notes) + "]\n"
    # Masking is not a compression: the never-worse baseline is the listing in its own order, masked.
    baseline = "".join(ln + "\n" for ln in lead) + "".join(
        f"{n}={MASK if v and is_secret(n) else mask(v)}\n" for n, v in entries
    )
    # The summary is a courtesy: never let it push the output back to the baseline.
    text = with_notes if (len(with_notes) + 3) // 4 < (len(baseline) + 3) // 4 else body
    return Filtered(text, 0, baseline)
