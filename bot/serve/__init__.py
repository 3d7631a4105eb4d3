"""The long-running process: the Slack app, the HTTP server, Socket Mode, and the work beside them
(the live index, the vault followed from git, pushes passed between replicas)."""
