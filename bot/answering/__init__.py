"""Text in, a `Reply` out: the composer, the model's rewrite of an answer, and the answer queue
every answer is composed in."""
