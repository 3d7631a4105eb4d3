"""A question read, searched and answered: what it asks, what its words weigh, the pages and
sentences that answer it."""
