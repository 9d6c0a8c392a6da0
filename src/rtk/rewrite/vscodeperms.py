"""VS Code's terminal auto-approve settings (``chat.tools.terminal.autoApprove``) as rtk permission patterns.

``chat.tools.terminal.autoApprove`` in the user's ``settings.json`` and the workspace's
``.vscode/settings.json`` (JSON with comments and trailing commas) maps a command to
``true`` (run without asking), ``false`` (always ask) or ``null`` (no rule). A key is a
command prefix (``"git status"`` matches ``git status`` and ``git status -s``), or a
JavaScript regular expression written ``/expression/flags``, searched in each
sub-command. A command runs unasked only when every sub-command matches a ``true`` rule
and none matches a ``false`` one: ``false`` wins, as ask wins in rtk's engine. An object
value ``{"approve": bool, "matchCommandLine": bool}`` is read for ``approve``; with
``matchCommandLine`` it applies to the whole line, which rtk does not match: such an
approve is not used, and such a refusal makes the file "cannot be evaluated".

``chat.tools.global.autoApprove`` (formerly ``chat.tools.autoApprove``) set to ``true`` in the
user's settings approves every tool call: every command no rule refuses is then allowed.
``chat.tools.terminal.enableAutoApprove: false`` turns the rules off: nothing is allowed.

These keys follow VS Code's documentation; they are not in the protocol reference
(``agent-hooks.md``) and are unconfirmed here (no VS Code runs in this environment).
VS Code's built-in default rules are not assumed (the reference documents none).

A workspace's ``.vscode/settings.json`` adds refusals only. VS Code ignores a workspace's
auto-approve settings while the workspace is untrusted, and a hook cannot see that trust: a
cloned repository's ``"rm": true`` must never become rtk's allow. Approvals count from the
user's own settings.
"""

from __future__ import annotations

from rtk.rewrite.permissions import REGEX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KEY = "chat.tools.terminal.autoApprove"
GLOBAL_KEYS = ("chat.tools.global.autoApprove", "chat.tools.autoApprove")
ENABLE_KEY = "chat.tools.terminal.enableAutoApprove"
_FLAGS = {"i": "i", "m": "m", "s": "s", "u": "", "g": "", "y": "", "d": ""}


def regex(key: str) -> tuple[str | None, str]:
    """``/expression/flags`` -> (rtk's regex pattern, ""), or (None, why rtk cannot use it)."""
    from rtk.rewrite import saferegex

    if len(key) < 3 or not key.startswith("/"):
        return None, "not a regular expression"
    end = key.rfind("/")
    if end <= 0:
        return None, "not a regular expression"
    body, flags = key[1:end], key[end + 1 :]
    if not body or any(f not in _FLAGS for f in flags):
        return None, "an empty expression or a flag rtk does not know"
    inline = "".join(sorted({_FLAGS[f] for f in flags if _FLAGS[f]}))
    expr = (f"(?{inline})" if inline else "") + body
    cost, why = saferegex.check(expr)  # a hostile workspace's /(a+)+$/ would hang the hook
    return (REGEX + expr, "") if cost is not None else (None, why)


def _prefix(key: str) -> str:
    c = " ".join(key.split())
    return "*" if not c else c if "*" in c else f"{c}:*"


def is_regex_key(key: str) -> bool:
    return len(key) >= 3 and key.startswith("/") and key.rfind("/") > 0


def read(doc: dict[str, Any], path: str, user: bool, out: dict[str, list[str]], broken: list[str]) -> bool:
    """Add the rules of one parsed settings file to ``out`` (allow/ask) and its problems to ``broken``.

    Returns False when the file turns terminal auto-approval off (then nothing may be allowed).
    """
    if user and any(doc.get(k) is True for k in GLOBAL_KEYS):
        out["allow"].append("*")  # every tool call approved: what no rule refuses runs unasked
    enabled = doc.get(ENABLE_KEY) is not False
    rules = doc.get(KEY)
    if rules is None:
        return enabled
    if not isinstance(rules, dict):
        broken.append(f"{path}: {KEY} is a {type(rules).__name__}, not an object")
        return enabled
    for key, value in rules.items():
        whole = False
        if isinstance(value, dict):
            whole = value.get("matchCommandLine") is True
            value = value.get("approve")
        if value is None:
            continue
        if value is True and not user:
            continue  # a workspace's approval: rtk cannot see VS Code's workspace trust, so only refusals count
        if not isinstance(value, bool):
            broken.append(f"{path}: {KEY}[{key!r}] is a {type(value).__name__}, not true, false or null")
            continue
        if whole:
            if not value:
                broken.append(f"{path}: {KEY}[{key!r}] refuses a whole command line, which rtk does not match")
            continue
        if is_regex_key(key):
            pattern, why = regex(key)
            if pattern is None:
                if not value:
                    broken.append(f"{path}: {KEY}[{key!r}] is a regular expression rtk cannot use: {why}")
                continue  # an approval rtk cannot use approves nothing
        else:
            if value and ("*" in key or not key.strip()):
                continue  # VS Code reads "*" literally; the matcher would read a glob: never broader
            pattern = _prefix(key)  # a prefix at a word boundary, as VS Code's ^key\b
        out["allow" if value else "ask"].append(pattern)
    return enabled
