"""What `make run` runs once the embedded services are up: migrate, demo, then web + worker + beat.

Run through `python -m config.embedded run -- python -m config.devserver`, which provides
DATABASE_URL and REDIS_URL. Ctrl-C stops the three processes; the embedded runner then
stops PostgreSQL and Redis.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def _manage(*args: str, capture: bool = False) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=BASE_DIR, check=True, text=True,
        stdout=subprocess.PIPE if capture else None,
    )
    return (result.stdout or "").strip()


def _wait_for_port(port: int, timeout_s: float = 60) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            probe.settimeout(0.3)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.2)
    return False


class _StopRequested(Exception):
    """Ctrl-C or SIGTERM: every child got the signal too; we only wait for them."""


def _raise_stop(signum, frame):
    raise _StopRequested


def main() -> int:
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    port = int(os.environ.get("PORT", "8000"))
    _manage("migrate", "--no-input", "-v", "0")
    _manage("load_demo")
    token = _manage("issue_bot_token", "--team", "Demo", "--name", "make run demo", "--replace", capture=True)

    var_dir = Path(os.environ.get("LOREKEEPER_VAR_DIR", BASE_DIR / "var"))
    celery = [PYTHON, "-m", "celery", "-A", "config"]
    processes = {
        "web": subprocess.Popen([PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], cwd=BASE_DIR),
        "worker": subprocess.Popen([*celery, "worker", "-l", "warning", "--concurrency", "2"], cwd=BASE_DIR),
        "beat": subprocess.Popen(
            [*celery, "beat", "-l", "warning", "--schedule", str(var_dir / "celerybeat-schedule")], cwd=BASE_DIR
        ),
    }
    try:
        if not _wait_for_port(port):
            print(f"The web server did not start on port {port}; is the port taken? Try PORT=8001 make run.")
            return 1
        print(
            "\n"
            f"  Lorekeeper is running at http://127.0.0.1:{port}/\n"
            "  Log in as admin / admin (configure) or viewer / viewer (view only); other / other is another team.\n"
            f"  Demo bot token (team Demo): {token}\n"
            f"  Try: curl -H 'Authorization: Bearer {token}' http://127.0.0.1:{port}/api/v1/servers/100000000000000001\n"
            "  Press Ctrl-C to stop everything.\n",
            flush=True,
        )
        while all(process.poll() is None for process in processes.values()):
            time.sleep(0.5)
        stopped = [name for name, process in processes.items() if process.poll() is not None]
        print(f"Stopping: {', '.join(stopped)} exited.")
        return 1
    except _StopRequested:
        print("Stopping Lorekeeper…", flush=True)
        return 0
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    sys.exit(main())
