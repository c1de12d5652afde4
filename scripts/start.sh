#!/usr/bin/env bash
# Installs everything, then runs the API on port 3000 (PORT overrides) and one worker.
# With DATABASE_URL and REDIS_URL unset it brings its own PostgreSQL and Redis. Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec node dist/tools/stack/cli.js start
