#!/usr/bin/env bash
# Installs what the service needs and builds it (scripts/setup.sh: the service set only, never the
# test set), then runs the API on port 3000 (the next free one when 3000 is busy; PORT chooses) and
# one worker. With DATABASE_URL and REDIS_URL unset it brings its own PostgreSQL and Redis. The
# logs go to .data/logs/docconv.log (`--logs` shows them here too). Ctrl-C stops everything. The
# banner says how long the whole start took, setup included.
set -euo pipefail
cd "$(dirname "$0")/.."
DOCCONV_START_BEGAN=$(date +%s%3N)
export DOCCONV_START_BEGAN
./scripts/setup.sh
exec node dist/tools/stack/cli.js start "$@"
