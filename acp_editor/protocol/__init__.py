"""Wire-level names and shapes, no I/O."""
