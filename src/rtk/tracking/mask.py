"""Mask credentials in command lines before they are stored anywhere.

Covers secret-named flags (``--token X``, ``--password=X``), secret-named
environment assignments (``GITHUB_TOKEN=X git push``), HTTP auth headers, user
passwords in URLs, and well-known token shapes (GitHub, OpenAI-style, Slack,
AWS access keys, JWTs).
"""

from __future__ import annotations

import re

MASK = "****"

_NAME = r"(?:[A-Za-z0-9_.-]*?(?:pass(?:word|wd)?|pwd|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|auth(?!or)|credentials?|cookie|session|jwt|signature)[A-Za-z0-9_.-]*)"
_VALUE = r"""(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+)"""

_RULES: list[tuple[re.Pattern[str], str]] = [
    # HTTP headers: -H 'Authorization: Bearer x', --header "X-Api-Key: x", Cookie: ...
    (
        re.compile(
            r"(?i)((?:authorization|proxy-authorization|x-[a-z-]*(?:key|token|secret)|cookie)\s*:\s*)((?:bearer|basic|token)\s+)?([^'\"\s]+)"
        ),
        r"\1\2" + MASK,
    ),
    # --secret-flag=value / --secret-flag value / -secret-flag value
    (re.compile(r"(?i)(--?" + _NAME + r")(=|\s+)(?!-)" + _VALUE), r"\1\2" + MASK),
    # NAME=value assignments with a secret-like name (env prefixes, k=v args)
    (re.compile(r"(?i)(^|[\s;&|(])(" + _NAME + r")=" + _VALUE), r"\1\2=" + MASK),
    # scheme://user:password@host
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@]+):[^\s@/]+@"), r"\1:" + MASK + "@"),
    # well-known token shapes
    (re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b"), MASK),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}\b"), MASK),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"), MASK),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), MASK),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+"), MASK),
    # query-string secrets: ?token=x&sig=y
    (
        re.compile(r"(?i)([?&](?:access_token|token|key|api_key|apikey|sig|signature|password|secret)=)[^&\s'\"]+"),
        r"\1" + MASK,
    ),
]


def mask(cmd: str) -> str:
    """``cmd`` with every credential-looking value replaced by ``****``."""
    for pattern, repl in _RULES:
        cmd = pattern.sub(repl, cmd)
    return cmd
