"""Services outside Lorekeeper: OpenAI-compatible chat completions and embedding providers."""
