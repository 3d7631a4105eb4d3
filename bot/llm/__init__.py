"""The model: its client (the ``openai`` SDK) and the grounding check of what it writes."""
