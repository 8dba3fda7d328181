"""Command modules of the ``cgsim`` command line."""
