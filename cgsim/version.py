"""The package version: a leaf module, so any layer can stamp it without import cycles."""

__version__ = "0.1.0"
