#!/bin/sh
# `make lock` (and `make lock UPGRADE=--upgrade`): the hashed lock files, written by `uv pip compile`.
# - requirements/dev.lock: the development environment (pyproject.toml with the dev extra), any OS,
#   Python 3.11+; `make install` installs exactly this with pip --require-hashes.
# - layers/all.lock: every layer's requirements resolved together for Lambda (CPython 3.12, arm64) at
#   the versions of the dev lock (what the tests ran is what ships),
#   so the layers a function stacks in /opt/python agree on every version;
# - layers/<name>/requirements.lock: one layer's share of it, with hashes; the layer is built from it
#   with pip --no-deps --require-hashes, and the lock is the layer's asset hash (its cache key).
# An existing lock is kept where it still satisfies the requirements (uv prefers its pins).
set -eu
UV=${UV:-.venv/bin/uv}
UPGRADE=${UPGRADE:-}
LAMBDA="--python-version 3.12 --python-platform aarch64-manylinux_2_28 --only-binary :all:"  # AL2023: glibc 2.34
# what the Lambda Python runtime already has: the base layer (every function) does not ship it again
RUNTIME_PROVIDED="boto3 botocore s3transfer jmespath python-dateutil six urllib3"

$UV pip compile pyproject.toml --extra dev --universal --python-version 3.11 --generate-hashes --quiet \
  --custom-compile-command "make lock" $UPGRADE -o requirements/dev.lock
$UV pip compile layers/*/requirements.txt -c requirements/dev.lock $LAMBDA --quiet --custom-compile-command "make lock" \
  $UPGRADE -o layers/all.lock
for req in layers/*/requirements.txt; do
  name=$(basename "$(dirname "$req")")
  skip=""
  if [ "$name" = base ]; then
    for package in $RUNTIME_PROVIDED; do skip="$skip --no-emit-package $package"; done
  fi
  # shellcheck disable=SC2086
  $UV pip compile "$req" -c layers/all.lock $LAMBDA --generate-hashes --quiet \
    --custom-compile-command "make lock" $skip -o "layers/$name/requirements.lock"
done
