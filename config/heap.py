"""Keep Python's garbage collector off what a long-running process loads once: modules, models, URL patterns and the
views they import, the template engines.

Why: a full (generation 2) collection walks every tracked object. A web worker holds about 150,000 of them after
start-up, and on a 2-core machine one such walk took 75–80 ms; it came about once in 20 memory-page requests and
was that page's p95 on its own (bench/memory_page.py: full page and strip p95 126 ms with it, 60 ms frozen).
gc.freeze() moves what is alive now into a permanent generation that collections skip; what requests create is
collected as before. What was loaded at start lives as long as the process anyway.
"""

from __future__ import annotations

import gc

from django.template import engines
from django.urls import get_resolver


def freeze_what_is_loaded(*, web: bool = True) -> None:
    """Load what Django otherwise loads on the first request (URL patterns and the views they import, the template
    engines), then freeze every object alive. Call it once the application is set up, in each process that serves;
    `web=False` for a process that serves no pages (the Discord bot), which then loads no panel for nothing."""
    if web:
        get_resolver().url_patterns  # noqa: B018 — building the resolver imports every view module
        engines.all()
    gc.collect()  # what start-up threw away goes now, not into the permanent generation
    gc.freeze()
