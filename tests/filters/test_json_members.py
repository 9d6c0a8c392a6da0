"""Members of one JSON object built from another member (GitHub's ``*_url``): said once, read back exactly."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_json_rowhead import _fill, _key, same, value

from rtk.filters.aws.compact import render
from rtk.filters.aws.rowhead import derive_members
from rtk.filters.jsonview import Num, loads

LABEL = "built from members: "


def read(text: str) -> dict[str, Any]:
    """A flat object back from its rendering: ``key: value`` lines and ``built from members:`` lines."""
    members: dict[str, Any] = {}
    templates: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith(LABEL):
            body = line[len(LABEL) :]
            if body.startswith("X_url = {"):
                src, names = body[len("X_url = {") :].split("}/X for X in ", 1)
                templates.update((f"{n}_url", "{" + src + "}/" + n) for n in names.split(", "))
            else:
                for entry in body.split(", "):
                    k, t = entry.split(" = ", 1)
                    templates[k] = t
            continue
        k, rest = _key(line)
        assert rest.startswith(": "), line
        members[k] = value(rest[2:])
    for k, t in templates.items():
        members[k] = _fill(t, members)
    return members


def shown(obj: dict[str, Any]) -> str:
    return render(json.dumps(obj))


BASE = "https://localhost:8443/api/v3/repos/acme/widgets"


def repo() -> dict[str, Any]:
    r: dict[str, Any] = {"id": 1, "name": "widgets", "url": BASE, "html_url": "https://localhost:8443/acme/widgets"}
    for k in ("forks", "keys", "teams", "hooks", "issue_events"):
        r[f"{k}_url"] = f"{BASE}/{k}"
    r["labels_url"] = BASE + "/labels{/name}"
    r["size"] = 8841
    return r


def test_urls_that_extend_url_are_said_once_and_read_back() -> None:
    text = shown(repo())
    assert f"url: {BASE}\n" in text
    assert "built from members: labels_url = {url}/labels{{/name}}\n" in text
    assert "built from members: X_url = {url}/X for X in forks, keys, teams, hooks, issue_events\n" in text
    assert BASE + "/forks" not in text and "forks_url:" not in text
    assert "html_url: https://localhost:8443/acme/widgets\n" in text  # another prefix: kept as it is
    assert same([read(text)], [loads(json.dumps(repo()))])


def test_fewer_than_three_named_urls_are_listed_one_by_one() -> None:
    obj = {"url": BASE, "jobs_url": BASE + "/jobs", "logs_url": BASE + "/logs", "n": 1}
    assert derive_members(loads(json.dumps(obj)), Num) == {"jobs_url": "{url}/jobs", "logs_url": "{url}/logs"}


def test_a_source_member_stays_as_it_is() -> None:
    issue = {"repository_url": BASE, "url": BASE + "/issues/318", "comments_url": BASE + "/issues/318/comments"}
    got = derive_members(loads(json.dumps(issue)), Num)
    assert got == {"comments_url": "{url}/comments"}  # url is a source: it is never a template itself


def test_text_that_merely_starts_with_another_member_is_not_derived() -> None:
    obj = {"title": "Resolver takes minutes", "body": "Resolver takes minutes.", "alt": "Resolver takes minutes later"}
    assert derive_members(loads(json.dumps(obj)), Num) == {}


def test_a_short_source_is_never_used() -> None:
    obj = {"url": "https://h", "a_url": "https://h/a", "b_url": "https://h/b", "c_url": "https://h/c"}
    assert derive_members(loads(json.dumps(obj)), Num) == {}


def test_a_long_value_full_of_slashes_costs_linear_time() -> None:
    """A megabyte of base64 (a file's ``content`` from ``gh api``) holds thousands of '/': each
    tried as the end of a source used to copy the prefix before it (80 kB took a second, 1 MB minutes)."""
    import time

    obj = {
        "url": "https://api.github.com/repos/o/r",
        "content": "ab/" * 400_000,
        "forks_url": "https://api.github.com/repos/o/r/forks",
    }
    start = time.process_time()
    got = derive_members(loads(json.dumps(obj)), Num)
    assert time.process_time() - start < 5  # a complexity bound, not a benchmark: the old code took minutes
    assert got == {"forks_url": "{url}/forks"}


def test_render_is_never_larger_than_without() -> None:
    from rtk.tokens import estimate_shaped

    for obj in (repo(), {"url": BASE, "a_url": BASE + "/a"}, {"x": 1}):
        raw = json.dumps(obj)
        assert estimate_shaped(render(raw)) <= estimate_shaped(render(raw, share=False))


_NAMES = st.sampled_from(["forks", "keys", "teams", "a", "b", "x|y", "a, b", "q{", "url", "git"])
_SUFFIX = st.sampled_from(["/forks", "/keys{/key_id}", "?page=2", "#top", "/a, b", "/{x}}", "/", "/x|y", "."])
_OTHER = st.one_of(
    st.integers(-5, 5000), st.booleans(), st.none(), st.sampled_from(["", "1", "open", "a, b", ' s "q" '])
)


@st.composite
def _objects(draw: st.DrawFn) -> dict[str, Any]:
    bases = draw(
        st.lists(
            st.sampled_from([BASE, BASE + "/issues/3", "https://h/p/{a}", "short", "12345678901234"]),
            min_size=1,
            max_size=3,
        )
    )
    obj: dict[str, Any] = {}
    for i, b in enumerate(bases):
        obj["url" if i == 0 else f"src{i}"] = b
    for name in draw(st.lists(_NAMES, max_size=8, unique=True)):
        key = f"{name}_url" if draw(st.booleans()) else name
        base = draw(st.sampled_from(bases))
        kind = draw(st.sampled_from(["named", "suffix", "other"]))
        if kind == "named":
            obj[key] = f"{base}/{name}"
        elif kind == "suffix":
            obj[key] = base + draw(_SUFFIX)
        else:
            obj[key] = draw(_OTHER)
    return obj


@settings(max_examples=300, deadline=None)
@given(_objects())
def test_every_member_reads_back(obj: dict[str, Any]) -> None:
    original = loads(json.dumps(obj))
    text = shown(obj)
    assert same([read(text)], [original]), text


# --- lists too wide for a table: what every object shares, once -----------------------------
def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _templates(body: str, into: dict[str, str]) -> None:
    if body.startswith("X_url = {"):
        src, names = body[len("X_url = {") :].split("}/X for X in ", 1)
        into.update((f"{n}_url", "{" + src + "}/" + n) for n in names.split(", "))
    else:
        for entry in body.split(", "):
            k, t = entry.split(" = ", 1)
            into[k] = t


def _obj(lines: list[str], i: int, ind: int) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}
    templates: dict[str, str] = {}
    while i < len(lines) and _indent(lines[i]) == ind and not lines[i][ind:].startswith("- "):
        text = lines[i][ind:]
        if text.startswith(LABEL):
            _templates(text[len(LABEL) :], templates)
            i += 1
            continue
        k, rest = _key(text)
        if rest == ":":
            sub = _indent(lines[i + 1])
            assert sub > ind, lines[i : i + 2]
            if lines[i + 1][sub:].startswith(("- ", "every item has:")):
                out[k], i = _list(lines, i + 1, sub)
            else:
                out[k], i = _obj(lines, i + 1, sub)
            continue
        assert rest.startswith(": "), text
        out[k] = value(rest[2:])
        i += 1
    for k, t in templates.items():
        out[k] = _fill(t, out)
    return out, i


def _list(lines: list[str], i: int, ind: int) -> tuple[list[Any], int]:
    common: dict[str, Any] = {}
    if lines[i][ind:] == "every item has:":
        common, i = _obj(lines, i + 1, ind + 1)
    items: list[Any] = []
    while i < len(lines) and _indent(lines[i]) == ind and lines[i][ind:].startswith("- "):
        lines[i] = " " * (ind + 2) + lines[i][ind + 2 :]  # the first member, as the others are indented
        item, i = _obj(lines, i, ind + 2)
        items.append({**common, **item})
    return items, i


def read_block(text: str) -> dict[str, Any]:
    obj, i = _obj(text.splitlines(), 0, 0)
    assert i == len(text.splitlines()), text
    return obj


def fleet(n: int) -> dict[str, Any]:
    shared = {"InstanceType": "c5.xlarge", "ImageId": "ami-0a1b2c3d4e5f60718", "State": {"Code": 16, "Name": "running"}}
    return {
        "Instances": [
            {"InstanceId": f"i-{i:017x}", **shared, "Note": f"host {i} " + "x" * 200, "AmiLaunchIndex": i}
            for i in range(n)
        ]
    }


def test_what_every_object_of_a_wide_list_shares_is_said_once() -> None:
    text = render(json.dumps(fleet(4)))
    assert text.count("InstanceType: c5.xlarge") == 1 and text.count("ami-0a1b2c3d4e5f60718") == 1
    assert "Instances:\n every item has:\n  InstanceType: c5.xlarge\n" in text
    assert all(f"i-{i:017x}" in text for i in range(4))
    assert same([read_block(text)], [loads(json.dumps(fleet(4)))])


def test_objects_left_with_nothing_are_said_as_they_are() -> None:
    alike = {"Items": [{"a": "x" * 200, "b": 1}, {"a": "x" * 200, "b": 1}]}
    assert "every item has" not in render(json.dumps(alike))


_LONG = st.sampled_from(["y" * 201, "z" * 230 + ", a", "https://h/" + "p" * 200])


@st.composite
def _lists(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(
        st.lists(
            st.sampled_from(["id", "url", "a b", "kind", "forks_url", "keys_url", "teams_url", "n"]),
            max_size=6,
            unique=True,
        )
    )
    base = {k: draw(_OTHER) for k in keys}
    items = []
    for i in range(draw(st.integers(2, 4))):
        item: dict[str, Any] = {"long": draw(_LONG) + str(i)}  # too long for a table cell, so a block list
        for k in keys:
            kind = draw(st.sampled_from(["same", "same", "own", "gone", "url"]))
            if kind == "same":
                item[k] = base[k]
            elif kind == "own":
                item[k] = draw(_OTHER)
            elif kind == "url":
                item[k] = f"{BASE}/{k}" if k != "url" else BASE
        items.append(item)
    return {"top": 1, "Items": items}


@settings(max_examples=300, deadline=None)
@given(_lists())
def test_every_object_of_a_wide_list_reads_back(doc: dict[str, Any]) -> None:
    original = loads(json.dumps(doc))
    text = render(json.dumps(doc))
    assert same([read_block(text)], [original]), text
