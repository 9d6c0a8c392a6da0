"""Output filters, one module per tool family. Nothing is imported here: see ``_map``."""
