"""Per-server setup: the memory type, AI settings, model endpoints, channel rules and the channel directory."""
