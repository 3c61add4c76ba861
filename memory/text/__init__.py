"""Pure text rules: what a key may hold, words as the searches cut them, instruction-like text, length limits.
Nothing here reads or writes a table."""
