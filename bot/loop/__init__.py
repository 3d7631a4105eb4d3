"""The wiki's loop: questions filed for its agents, answered later, pages watched."""
