#!/usr/bin/env bash
# Installs both sets (the service set of setup.sh and the test set of setup-tests.sh), checks lint
# and the committed OpenAPI document, and runs the whole test suite against real PostgreSQL and
# Redis (its own ones unless DATABASE_URL/REDIS_URL are set). Says how long each part took.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
timed "setup: the service set" ./scripts/setup.sh
timed "setup: the test set" ./scripts/setup-tests.sh
timed "lint" npm run --silent lint
timed "main suite" npm test
