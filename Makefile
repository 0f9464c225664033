# Every target does its own set-up: a fresh clone needs only `make dev` or `make test`.
PYTHON ?= $(shell for p in python3.12 python3.11 python3; do $$p -c 'import sys; assert sys.version_info >= (3, 11)' \
            2>/dev/null && { echo $$p; break; }; done)
VENV   := .venv
BIN    := $(VENV)/bin
LOCK   := requirements/dev.lock
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml $(LOCK) | sha1sum | cut -c1-12)

.PHONY: install browser ocr cdk-cli console console-test console-types synth test test-busy dev lint fmt unit integration e2e bench schemas clean readme-sample lock

# The development environment is exactly requirements/dev.lock (hashes checked), then tulia itself.
$(STAMP): pyproject.toml $(LOCK)
	@test -n "$(PYTHON)" || { echo "Tulia needs Python 3.11 or newer on PATH"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@rm -f $(VENV)/.installed-*
	@touch $@

install: $(STAMP)

# The chat page's browser test drives Debian's chromium with Playwright's client (CI runs as root).
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then APT=""; elif command -v sudo >/dev/null; then APT=sudo; else \
	    echo "chromium is missing: install the Debian package 'chromium' (the browser test needs it)"; exit 1; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$APT apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 || \
	  { $$APT apt-get update -qq && $$APT apt-get install -y -qq --no-install-recommends chromium; }; }

# M-Pesa screenshots are read by Tesseract on a laptop (Textract in AWS): Debian's tesseract-ocr with its English
# data, and the DejaVu fonts the tests draw screenshots in. `make dev` runs without it (screenshots are then asked
# for as text); `make test` needs it.
ocr:
	@command -v tesseract >/dev/null && test -d /usr/share/fonts/truetype/dejavu || { \
	  if [ "$$(id -u)" = 0 ]; then APT=""; elif command -v sudo >/dev/null; then APT=sudo; else \
	    echo "tesseract is missing: install the Debian packages 'tesseract-ocr' and 'fonts-dejavu-core'"; exit 1; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$APT apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng fonts-dejavu-core >/dev/null 2>&1 || \
	  { $$APT apt-get update -qq && $$APT apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng fonts-dejavu-core; }; }

# The CDK CLI and the Node.js 22 it runs on, pinned with hashes in infra/cli/package-lock.json
# (npm ci; npm itself comes from apt when the machine has none).
CDK := infra/cli/cdk
CDK_INSTALLED := infra/cli/node_modules/.installed-$(shell cat infra/cli/package-lock.json | sha1sum | cut -c1-12)
cdk-cli: $(CDK_INSTALLED)
$(CDK_INSTALLED): infra/cli/package-lock.json
	@command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then APT=""; elif command -v sudo >/dev/null; then APT=sudo; else \
	    echo "npm is missing: install the Debian packages 'nodejs' and 'npm' (make cdk-cli needs them)"; exit 1; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$APT apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null 2>&1 || \
	  { $$APT apt-get update -qq && $$APT apt-get install -y -qq --no-install-recommends nodejs npm; }; }
	cd infra/cli && npm ci --silent --no-audit --no-fund
	@touch $@

# The shop's console (console/): TypeScript, built offline by Vite after `npm ci` from its lock file, on
# the Node.js 22 that `make cdk-cli` installs (npm itself may be the machine's).
NODE_BIN := $(abspath infra/cli/node_modules/.bin)
CONSOLE_INSTALLED := console/node_modules/.installed-$(shell cat console/package-lock.json | sha1sum | cut -c1-12)
$(CONSOLE_INSTALLED): console/package-lock.json $(CDK_INSTALLED)
	cd console && PATH="$(NODE_BIN):$$PATH" npm ci --silent --no-audit --no-fund
	@touch $@
# openapi-typescript, in its own folder and lock: it needs TypeScript 5's compiler API, the console builds with 7
CODEGEN_INSTALLED := console/codegen/node_modules/.installed-$(shell cat console/codegen/package-lock.json | sha1sum | cut -c1-12)
$(CODEGEN_INSTALLED): console/codegen/package-lock.json $(CDK_INSTALLED)
	cd console/codegen && PATH="$(NODE_BIN):$$PATH" npm ci --silent --no-audit --no-fund
	@touch $@
console-types: install $(CODEGEN_INSTALLED) ## the console's types from the admin API (console/openapi.json, console/src/api-schema.ts)
	$(BIN)/python scripts/console_types.py
console: $(CONSOLE_INSTALLED) $(CODEGEN_INSTALLED) ## build console/dist (served by `tulia dev` at /console/, deployed by the CDK app)
	cd console && PATH="$(NODE_BIN):$$PATH" npm run --silent build
console-test: $(CONSOLE_INSTALLED) ## the console's own unit tests (Vitest)
	cd console && PATH="$(NODE_BIN):$$PATH" npm test --silent

synth: install cdk-cli console ## cdk synth of the dev stage, bundling the functions and layers (no Docker)
	$(CDK) synth --context stage=dev --quiet

# the suite's workers (pytest-xdist): a test module stays on one worker, so its stack or fixtures start once (and
# the modules sharing a stack stay together: tests/conftest.py). Three on two cores: the worker running the browser
# and stack modules mostly waits on Chromium and `tulia dev` (two workers left a quarter of the cores idle; quiet:
# 8 min 36 s with two, 7 min 8 s with three; BENCHMARKS.md)
TEST_WORKERS ?= 3
PYTEST := $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

test: install browser ocr cdk-cli lint console console-test ## the whole suite
	TULIA_CHROMIUM=$(CHROMIUM) TULIA_CDK_CLI=$(CDK) $(PYTEST)

# The whole suite while a CPU hog keeps both cores busy (stress-ng, Debian's package): tests that hold only
# on a quiet machine fail here. `make test-busy STRESS_CPUS=4` for a heavier load.
STRESS_CPUS ?= 2
test-busy: install browser ocr cdk-cli lint console console-test ## the whole suite beside a CPU hog
	@command -v stress-ng >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then APT=""; elif command -v sudo >/dev/null; then APT=sudo; else \
	    echo "stress-ng is missing: install the Debian package 'stress-ng'"; exit 1; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$APT apt-get install -y -qq --no-install-recommends stress-ng >/dev/null 2>&1 || \
	  { $$APT apt-get update -qq && $$APT apt-get install -y -qq --no-install-recommends stress-ng; }; }
	stress-ng --cpu $(STRESS_CPUS) --cpu-method matrixprod --timeout 2h --quiet & HOG=$$!; \
	  trap 'kill $$HOG 2>/dev/null' EXIT; \
	  TULIA_CHROMIUM=$(CHROMIUM) TULIA_CDK_CLI=$(CDK) $(PYTEST) --durations=15

unit: install
	$(BIN)/python -m pytest -q tests/unit

integration: install
	$(BIN)/python -m pytest -q tests/integration

e2e: install browser console ## the local stack over HTTP, and the chat page in headless Chromium
	TULIA_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -q tests/e2e

lint: install
	$(BIN)/ruff check shared functions tests bench scripts infra
	$(BIN)/ruff format --check shared functions tests bench scripts infra
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

fmt: install
	$(BIN)/ruff check --fix shared functions tests bench scripts infra
	$(BIN)/ruff format shared functions tests bench scripts infra

dev: install console ## the embedded local stack with the demo shop (its data kept in .tulia-data/ across restarts; PORT=8080)
	@$(MAKE) --no-print-directory ocr || echo "(M-Pesa screenshots will be asked for as text)"
	$(BIN)/tulia dev --data-dir .tulia-data$(if $(PORT), --port $(PORT))

bench: install console browser ocr
	$(BIN)/python bench/catalog_search.py
	$(BIN)/python bench/dynamodb_calls.py
	$(BIN)/python bench/conversation_turns.py
	$(BIN)/python bench/order_frame.py
	$(BIN)/python bench/bookings.py
	$(BIN)/python bench/booking_goals.py
	$(BIN)/python bench/understanding.py
	$(BIN)/python bench/word_lists.py
	$(BIN)/python bench/shop_layer.py
	$(BIN)/python bench/blind_conversations.py
	$(BIN)/python bench/multi_items.py
	$(BIN)/python bench/basket_machine.py
	$(BIN)/python bench/functions.py
	TULIA_CHROMIUM=$(CHROMIUM) $(BIN)/python bench/console.py
	$(BIN)/python bench/pipeline_throughput.py
	$(BIN)/python bench/noisy_neighbour.py
	$(BIN)/python bench/outreach.py
	$(BIN)/python bench/knowledge_base.py
	$(BIN)/python bench/admin_lists.py
	$(BIN)/python bench/package_sizes.py
	$(BIN)/python -m bench.screenshots

# Re-pin the lock files after editing pyproject.toml or a layer's requirements.txt (needs the package
# index); `make lock UPGRADE=--upgrade` moves every pin to the newest allowed version.
lock: install
	UV=$(BIN)/uv UPGRADE="$(UPGRADE)" sh scripts/lock.sh

readme-sample: install
	$(BIN)/python scripts/readme_sample.py

schemas: install
	$(BIN)/python -m tulia.tools --schemas

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
