"""The wiki's log read as a page: a section per entry, its heading (with its date) leading its text."""

from __future__ import annotations

import pytest

from index.model import Section
from index.reading.format import WIKI_LOG
from index.reading.log_page import log_page


@pytest.mark.parametrize(
    ("text", "sections"),
    [
        pytest.param(
            "# Wiki Log\n\nAppend-only.\n\n## [2026-05-28] init | Wiki initialised\n\nIndex bootstrapped.\n",
            [
                Section("Wiki Log", "Append-only."),
                Section(
                    "2026-05-28 init | Wiki initialised",
                    "2026-05-28 init | Wiki initialised\nIndex bootstrapped.",
                ),
            ],
            id="preamble-and-entry",
        ),
        pytest.param(
            "## 2026-08-23\n* **lint:warning** — stale=21\n",
            [Section("2026-08-23", "2026-08-23\n* **lint:warning** — stale=21")],
            id="a-heading-that-is-only-a-date",
        ),
        pytest.param(
            "| 2026-07-19 | create | [x](pages/x.md) |\n",
            [Section("2026-07-19", "| 2026-07-19 | create | [x](pages/x.md) |")],
            id="a-dated-row-headed-by-its-date",
        ),
        pytest.param(
            "# Log\n\n<!-- hidden -->\n## [2026-01-01] x | y\n<!-- note -->\n",
            [Section("2026-01-01 x | y", "2026-01-01 x | y")],
            id="comments-and-empty-text-go",
        ),
    ],
)
def test_each_entry_is_a_section_led_by_its_heading(text: str, sections: list[Section]) -> None:
    page = log_page("wiki/log.md", text)
    assert (page.path, page.type, page.title) == ("wiki/log.md", WIKI_LOG, "log")
    assert list(page.sections) == sections
