"""``gh api``: a JSON response shown compactly with every key and value (the aws renderer); anything else raw.

gh copies the response body to a pipe as the server sent it. JSON that the compact
rendering makes smaller is shown that way (keys unquoted, one member per line, small
objects inline); other bodies (``--include`` headers, ``--paginate``'s concatenated
pages, errors after which gh appends its message) print raw.
"""

from __future__ import annotations


def api(argv: list[str], output: str, exit_code: int) -> str | None:
    if exit_code != 0 or not output.lstrip().startswith(("{", "[")):
        return None
    from rtk.filters.aws.compact import render

    text = render(output)
    return text if len(text) < len(output) else None
