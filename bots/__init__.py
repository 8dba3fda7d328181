"""Built-in bots: each imports only the public API of ``cgsim``."""
