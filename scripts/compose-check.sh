#!/usr/bin/env bash
# Builds docker/compose.yaml, starts it (2 API replicas behind nginx, 3 workers, PostgreSQL, Redis,
# MinIO), converts a one-page PDF through it, and checks that both API replicas answered and every
# worker serves its metrics; then stops it and removes its volumes. Needs a Docker engine with the
# compose plugin: it says so and exits 2 where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! docker compose version >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
  echo "compose-check: needs a running Docker engine and the compose plugin; none here." >&2
  exit 2
fi

export JWT_SECRET=${JWT_SECRET:-$(openssl rand -hex 32)}
export FILE_URL_SECRET=${FILE_URL_SECRET:-$(openssl rand -hex 32)}
export ADMIN_TOKEN=${ADMIN_TOKEN:-$(openssl rand -hex 16)}
compose=(docker compose -p docconv-check -f docker/compose.yaml)
trap '"${compose[@]}" down --volumes --remove-orphans >/dev/null 2>&1 || true' EXIT

"${compose[@]}" up --build --detach --wait --wait-timeout 600
[ "$("${compose[@]}" ps --quiet api | wc -l)" -eq 2 ] || { echo "compose-check: expected 2 API replicas" >&2; exit 1; }
[ "$("${compose[@]}" ps --quiet worker | wc -l)" -eq 3 ] || { echo "compose-check: expected 3 workers" >&2; exit 1; }

base=http://localhost:3000/api/v1
curl -fsS "$base/health/ready" >/dev/null
email="check-$(date +%s)@example.test"
token=$(curl -fsS -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"password\":\"compose check password\"}" \
  "$base/auth/signup" | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
"${compose[@]}" exec -T api node dist/apps/admin/src/main.js grant --email "$email" --points 100000 >/dev/null
key=$(curl -fsS -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"name":"compose check"}' \
  "$base/keys" | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')
pdf=$(mktemp --suffix=.pdf)
printf '%s\n' '%PDF-1.4' '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj' '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj' \
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj' \
  '4 0 obj<</Length 44>>stream' 'BT /F1 24 Tf 72 700 Td (Compose check) Tj ET' 'endstream endobj' \
  '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj' 'trailer<</Root 1 0 R>>' '%%EOF' > "$pdf"
job=$(curl -fsS -H "X-API-Key: $key" -F "files=@$pdf;type=application/pdf" "$base/jobs/upload" |
  node -pe 'JSON.parse(require("fs").readFileSync(0)).job_id')
curl -fsS -X POST -H "X-API-Key: $key" "$base/jobs/$job/confirm" >/dev/null
for _ in $(seq 120); do
  status=$(curl -fsS -H "X-API-Key: $key" "$base/jobs/$job" | node -pe 'JSON.parse(require("fs").readFileSync(0)).status')
  [ "$status" = done ] && break
  [ "$status" = error ] && { echo "compose-check: the job ended in error" >&2; exit 1; }
  sleep 1
done
curl -fsS -H "X-API-Key: $key" "$base/jobs/$job/download" | grep -q 'Compose check'

# Both replicas answered through nginx (each counts its requests), and every worker serves metrics.
for id in $("${compose[@]}" ps --quiet api); do
  docker exec "$id" node -e "fetch('http://127.0.0.1:3000/metrics',{headers:{authorization:'Bearer $ADMIN_TOKEN'}}).then(r=>r.text()).then(t=>process.exit(/docconv_http_request_duration_seconds_count\{method=\"GET\",route=\"\/api\/v1\/jobs\/:job_id\"/.test(t)?0:1))" ||
    { echo "compose-check: API replica $id served no job request" >&2; exit 1; }
done
for id in $("${compose[@]}" ps --quiet worker); do
  docker exec "$id" node -e "fetch('http://127.0.0.1:9464/metrics').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" ||
    { echo "compose-check: worker $id serves no metrics" >&2; exit 1; }
done
echo "compose-check: 2 API replicas and 3 workers converted a PDF through nginx"
