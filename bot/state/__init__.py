"""What the processes of one deployment must agree on and keep across restarts (``STATE_DB``).

`store.StateStore` is the interface (an SQLite file today; PostgreSQL for replicas on separate
disks implements the same one). `events`, `digest_runs`, `threads` (followed threads) and
`feedback` (answer votes, unanswered questions) each hold one concept's records and interface;
`sqlite` the file they share.
"""
