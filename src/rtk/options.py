"""Process-wide options set by rtk's global flags (-v, --ultra-compact, --skip-env)."""

from __future__ import annotations

verbose = 0
ultra_compact = False
skip_env = False

GLOBAL_FLAGS_HELP = """\
global options (before the command):
  -v, --verbose      diagnostics on stderr (repeat for more): filter used, tokens before/after
  --ultra-compact    shortest output the filters can give
  --skip-env         set SKIP_ENV_VALIDATION=1 for the command (Next.js, tsc, prisma...)
  --version          print rtk's version
  -h, --help         this help"""


def parse_global(args: list[str]) -> tuple[list[str], str | None]:
    """Consume rtk's global flags at the front of ``args``.

    Returns the remaining arguments and an action for flags that end the run
    (``"version"`` or ``"help"``), or ``None``. Flags are only recognised before
    the command word, so ``rtk git push -u`` keeps git's ``-u``.
    """
    global verbose, ultra_compact, skip_env
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-v", "--verbose"):
            verbose += 1
        elif len(a) > 2 and a[0] == "-" and a[1] == "v" and a[1:] == "v" * (len(a) - 1):
            verbose += len(a) - 1
        elif a == "--ultra-compact":
            ultra_compact = True
        elif a == "--skip-env":
            skip_env = True
        elif a in ("--version", "-V"):
            return args[i + 1 :], "version"
        elif a in ("-h", "--help"):
            return args[i + 1 :], "help"
        elif a == "--":
            return args[i + 1 :], None
        else:
            break
        i += 1
    return args[i:], None
