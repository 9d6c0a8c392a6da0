"""Filter for ``aws``: which commands are compacted, and how (JSON, tables, s3 transfers, logs)."""

from __future__ import annotations

from rtk.filterapi import Spec

COMMANDS = ("aws",)

# Options of the aws command itself that take a value (they may sit before the service).
_VALUED = frozenset(
    (
        "--endpoint-url", "--region", "--profile", "--output", "--query", "--cli-read-timeout",
        "--cli-connect-timeout", "--ca-bundle", "--color", "--cli-binary-format", "--cli-input-json",
        "--cli-input-yaml", "--generate-cli-skeleton", "--starting-token", "--page-size", "--max-items",
    )
)  # fmt: skip
# Output that is data, interactive, or never ends: run untouched.
_LIVE = frozenset(("configure", "ssm", "help", "ecs-exec", "sso", "login"))
_S3_LISTINGS = frozenset(("ls", "cp", "mv", "rm", "sync", "mb", "rb", "presign", "website"))


def words(argv: list[str]) -> list[str]:
    """The positional words of an aws command (service, operation, paths), option values skipped."""
    out: list[str] = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith("--"):
            if "=" not in a and a in _VALUED:
                i += 1
        elif not a.startswith("-") or a == "-":
            out.append(a)
        i += 1
    return out


def _opt(argv: list[str], name: str) -> str | None:
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


def select(argv: list[str]) -> Spec | None:
    rest = argv[1:]
    if "--version" in rest or "--generate-cli-skeleton" in rest or "--debug" in rest:
        return None
    w = words(argv)
    if not w or w[0] in _LIVE or "help" in w or (len(w) > 1 and w[1] == "wait"):
        return None
    if w[0] == "logs" and w[1:2] == ["tail"] and ("--follow" in rest or "-f" in rest):
        return None  # streams until interrupted
    if w[0] == "s3":
        if w[1:2] and w[1] in ("cp", "mv") and "-" in w[2:]:
            return None  # object bytes on stdout, or stdin as the source: data, not text
        if w[1:2] and w[1] not in _S3_LISTINGS:
            return None
        from rtk.filters.aws import s3

        return Spec("aws-s3", s3.s3)
    if _opt(argv, "--output") not in (None, "json", "table", "text"):
        return None  # yaml, yaml-stream: not parsed here
    from rtk.filters.aws import api

    return Spec("aws", api.api)
