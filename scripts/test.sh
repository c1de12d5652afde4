#!/usr/bin/env bash
# Installs everything, checks lint and the committed OpenAPI document, and runs the whole
# test suite against real PostgreSQL and Redis (its own ones unless DATABASE_URL/REDIS_URL are set).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
npm run --silent lint
exec npm test
