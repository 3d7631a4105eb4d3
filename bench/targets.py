"""The targets a run is judged against (issue 6 for speed and memory, product.md for quality).

Speed and memory targets are stated for 10,000 pages on a 2-core machine; they are evaluated on every run
but only a 10,000-page run can meet or miss them.
"""

from __future__ import annotations

from dataclasses import dataclass

TARGET_PAGES = 10_000


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    limit: float
    unit: str
    higher_is_better: bool = False

    def met(self, value: float) -> bool:
        return value >= self.limit if self.higher_is_better else value <= self.limit

    def describe(self) -> str:
        sign = "≥" if self.higher_is_better else "≤"
        if self.unit == "%":
            return f"{sign} {self.limit:.0%}"
        return f"{sign} {self.limit:g} {self.unit}"


TARGETS = (
    Target("build_s", "full build", 60, "s"),
    Target("update_visible_s", "edit → answerable", 2, "s"),
    Target("cold_start_s", "cold start → first answer", 2, "s"),
    Target("entity_p99_ms", "/entity p99", 5, "ms"),
    Target("search_p99_ms", "question search p99", 150, "ms"),
    Target("serve_rss_mb", "serving memory (RSS)", 300, "MB"),
)
QUALITY_TARGETS = (
    Target("lookup_top1", "/entity right page first", 0.95, "%", higher_is_better=True),
    Target("search_top3", "question: answer in top 3", 0.5, "%", higher_is_better=True),
)


def evaluate(run: dict) -> dict:
    """``{key: {"target", "measured", "met", "applies"}}`` for one run's figures."""
    applies = run["pages"] == TARGET_PAGES
    judged = {}
    for target in TARGETS:
        value = run.get(target.key)
        judged[target.key] = _judgement(target, value, applies)
    for target in QUALITY_TARGETS:
        value = run.get("quality", {}).get(target.key)
        judged[target.key] = _judgement(target, value, applies)
    return judged


def _judgement(target: Target, value: float | None, applies: bool) -> dict:
    return {
        "target": target.describe(),
        "limit": target.limit,
        "measured": value,
        "met": None if value is None else target.met(value),
        "applies": applies,
    }
