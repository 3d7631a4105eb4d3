"""Every page, its links and its names in SQLite: read, written, and the graph and names worked
out from them."""
