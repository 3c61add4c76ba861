"""Django's PostgreSQL backend with two changes for the bot's hot path (see base.py)."""
