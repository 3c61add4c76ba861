"""The worker side that keeps what retrieval reads up to date: fact vectors, the catch-up round, per-server indexes."""
