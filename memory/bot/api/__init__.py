"""The bot API, version 1 (contract: shared/API.md)."""
