"""A gunicorn worker freezes what it loaded at start-up (config.heap): full garbage collections then skip the
objects of modules, views and templates, which on a 2-core machine cost 75–80 ms each time one came."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SHOW_FREEZE = ("import gc, sys; frozen_before = gc.get_freeze_count(); import config.wsgi; "
               "print(frozen_before, gc.get_freeze_count(), 'memory.panel.views.memory_page' in sys.modules)")


def test_the_wsgi_worker_freezes_its_start_up_objects_views_included():
    result = subprocess.run([sys.executable, "-c", SHOW_FREEZE], cwd=BASE_DIR,
                            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    before, after, views_loaded = result.stdout.split()
    assert int(before) == 0
    assert int(after) > 50_000  # Django, the apps, every view module and the template engines
    assert views_loaded == "True"  # the URL patterns were built before freezing, not on the first request
