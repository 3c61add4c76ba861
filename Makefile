# Lorekeeper: `make run` serves the panel with everything it needs; `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export PORT

.PHONY: run test bench bench-smoke chromium clean-var messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.dev-installed: $(BIN)/python requirements/base.txt requirements/dev.txt
	$(BIN)/pip install --quiet -r requirements/dev.txt
	touch $@

$(VENV)/.test-installed: $(VENV)/.dev-installed requirements/test.txt
	$(BIN)/pip install --quiet -r requirements/test.txt
	touch $@

run: $(VENV)/.dev-installed
	$(BIN)/python -m config.embedded run --var var -- $(BIN)/python -m config.devserver

# Browser tests drive Debian's chromium (Playwright's own browser download cannot work offline), with a Japanese
# font so that the Japanese panel's screenshots show text, not boxes; the translation tests run gettext's
# xgettext and msgfmt (what `manage.py makemessages` and `compilemessages` call).
chromium:
	@{ test -x /usr/bin/chromium && test -x /usr/bin/msgfmt && test -x /usr/bin/xgettext \
		&& fc-list :lang=ja | grep -q . ; } || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
			chromium gettext fonts-ipafont-gothic >/dev/null; }

# The import contracts first (.importlinter: one import direction), then the suite, then, on the same
# throw-away services, every bench's set-up and one timed call on small servers (`python -m bench.run_all --smoke`,
# about 30 s), so a bench that cannot start fails CI. BENCH_SMOKE=0 skips the smoke.
BENCH_SMOKE ?= 1

test: $(VENV)/.test-installed chromium
	$(BIN)/lint-imports
	DJANGO_SETTINGS_MODULE=config.settings.test $(BIN)/python -m config.embedded run \
		--var "$$(mktemp -d /tmp/lorekeeper-test.XXXXXX)" --throwaway -- \
		sh -c '"$$0" -m pytest "$$@" && { [ "$(BENCH_SMOKE)" = 0 ] || "$$0" -m bench.run_all --smoke; }' \
		$(BIN)/python $(PYTEST_ARGS)

# The bench database holds a million facts: give PostgreSQL the buffers a server of that size would
# have (2 GB of this machine's 24; allocated as used). Applies when `make bench` starts it.
BENCH_PG_OPTIONS ?= -c shared_buffers=2GB
# `make bench BENCH="context load"` runs those benches only (the names in bench/run_all.py); empty: all.
BENCH ?=

bench: $(VENV)/.test-installed
	LOREKEEPER_EMBEDDED_PG_OPTIONS="$(BENCH_PG_OPTIONS)" DJANGO_SETTINGS_MODULE=config.settings.test \
		$(BIN)/python -m config.embedded run --var var/bench -- $(BIN)/python -m bench.run_all $(BENCH)

# The smoke `make test` ends with, alone, on throw-away services (var/bench is not touched).
bench-smoke: $(VENV)/.test-installed
	DJANGO_SETTINGS_MODULE=config.settings.test $(BIN)/python -m config.embedded run \
		--var "$$(mktemp -d /tmp/lorekeeper-smoke.XXXXXX)" --throwaway -- $(BIN)/python -m bench.run_all --smoke $(BENCH)

# After marking or changing panel text: refresh the nl/de/ja catalogues from the code, translate what is new in
# locale/*/LC_MESSAGES/django.po, then run this again to compile the .mo files (committed, so that a fresh
# machine needs no gettext). tests/i18n fails while a marked string has no translation.
MESSAGES_IGNORE = --ignore=.venv --ignore=var --ignore=tests --ignore=bench --ignore=static --ignore=requirements --ignore=docs
messages: $(VENV)/.dev-installed chromium
	$(BIN)/python manage.py makemessages --locale nl --locale de --locale ja --no-obsolete --no-wrap $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages --locale nl --locale de --locale ja $(MESSAGES_IGNORE)
