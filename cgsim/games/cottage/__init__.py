"""The Cottage Garden game: its components and its rules."""
