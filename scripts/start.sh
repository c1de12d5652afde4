#!/usr/bin/env bash
# Installs what changed, builds what changed, then runs the API on port 3000 (the next free one
# when 3000 is busy; PORT chooses) and one worker. With DATABASE_URL and REDIS_URL unset it brings
# its own PostgreSQL and Redis. The logs go to .data/logs/docconv.log (`--logs` shows them here
# too). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec node dist/tools/stack/cli.js start "$@"
