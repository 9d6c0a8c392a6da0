"""Package lists (pip/uv/poetry): whole up to limits.listing_budget tokens, above it counted per name prefix."""

from __future__ import annotations

import re

from rtk.filters import names


def test_a_list_under_the_budget_is_one_whole_line() -> None:
    items = [f"pkg{i}==1.{i}" for i in range(400)]  # far past the old count cap of 150
    lines, cut = names.listed("installed (400): ", items, limit=4000)
    assert cut == 0 and lines == ["installed (400): " + ", ".join(items)]


def test_above_the_budget_groups_by_prefix_with_exact_counts() -> None:
    items = [f"google-cloud-{i}==2.{i}" for i in range(300)]
    items += ["requests==2.32.3", "rich==13.9.4", "types-PyYAML==6.0", "types-requests==2.32"]
    lines, cut = names.listed("installed (304): ", items, limit=400)
    text = "\n".join(lines)
    assert lines[0] == "installed (304):"
    assert "  google*  (300 packages)" in lines  # the large group counted, exactly
    for small in ("requests==2.32.3", "rich==13.9.4", "types-PyYAML==6.0, types-requests==2.32"):
        assert small in text  # the small groups named whole
    assert cut == 300
    assert sum(int(n) for n in re.findall(r"\((\d+) packages?\)", text)) + text.count("==") == len(items)


def test_prefix_reads_the_name_of_every_item_shape() -> None:
    assert names.prefix("google-cloud-core==2.4") == "google"
    assert names.prefix("backports.tarfile==1.2.0") == "backports"
    assert names.prefix("attrs 24.2.0 -> 26.1.0") == "attrs"
    assert names.prefix("Werkzeug==3.1.8") == "werkzeug"
    assert names.prefix("_private==1") == "_private"
