"""What ``sakuin doctor`` reports: each `Check` (its name, whether it passed, the detail with what
to do), printed as a ✓/✗ line or in the JSON contract (product.md); its exit status: 0 when every
check passes, else 1."""

from __future__ import annotations

from dataclasses import dataclass

from bot.cli.terminal import out, print_json


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def doctor_json(checks: list[Check]) -> dict:
    return {"checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in checks]}


def report_checks(checks: list[Check], as_json: bool) -> int:
    """Print each check (✓/✗ with what to do, or the JSON contract); 0 when all pass, else 1."""
    if as_json:
        print_json(doctor_json(checks))
    else:
        for check in checks:
            out.print(f"{'✓' if check.ok else '✗'} {check.name}: {check.detail}")
    return 0 if all(check.ok for check in checks) else 1
