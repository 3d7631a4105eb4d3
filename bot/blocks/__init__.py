"""Pure Block Kit builders: domain values in, Slack blocks out (no I/O)."""
