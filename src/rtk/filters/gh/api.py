"""``gh api``: a JSON response shown compactly with every key and value (the aws renderer); anything else raw.

gh copies the response body to a pipe as the server sent it (GitHub sends it minified,
on one line). Two lossless renderings are tried: the aws one (keys unquoted, small
objects inline, a list of alike objects as a table with nested objects spread into
``key.member`` columns, else one member per line) and one line per array element or
object member; the one with fewer tokens is shown when it has fewer than the body.
Other bodies (``--include`` headers, ``--paginate``'s concatenated pages, errors after
which gh appends its message) print raw.
"""

from __future__ import annotations


def api(argv: list[str], output: str, exit_code: int) -> str | None:
    if exit_code != 0 or not output.lstrip().startswith(("{", "[")):
        return None
    from rtk.filters.aws.compact import one_per_line, render
    from rtk.tokens import estimate_shaped

    best, cost = None, estimate_shaped(output)
    for text in (render(output), one_per_line(output)):
        n = estimate_shaped(text)
        if n < cost:
            best, cost = text, n
    return best
