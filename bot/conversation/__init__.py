"""Answering in a conversation: one answer's path in a thread (subject, controls, following), and
the assistant pane."""
