"""The benchmarks: run each as a module from the repository root, `python -m bench.<name>`, under the
bench database (`make bench` runs them all; README).

A package, so that bench/ itself is never on sys.path: run as a file, bench/consolidation.py stood in for
the consolidation app once Celery's Django fix-up put the working directory first on sys.path.
"""
