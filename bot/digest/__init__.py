"""The daily digest: which day is due and what it holds (`days`), the schedule (`schedule`), and
posting it exactly once per channel (`posting`, `channel_run`). docs/digest.md has the
operator's view."""
