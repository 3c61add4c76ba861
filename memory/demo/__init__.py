"""The demo `make run` loads: teams, users, servers and their memory (manage.py load_demo)."""
