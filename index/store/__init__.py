"""The full-text store: the passages a page is cut into, and the engine (every whoosh call) they
are searched in."""
