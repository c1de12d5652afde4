#!/usr/bin/env bash
# Installs what docconv needs on a Debian machine and builds it. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# redis-server: the private Redis of the local stack; tesseract: OCR; ffmpeg: media duration (ffprobe)
# and generated test media; poppler-utils: rendering scanned pages, reference page counts; fonts: text in generated
# test images; LibreOffice (writer, calc, impress): the tests check that converted DOCX/XLSX/PPTX open in it;
# chromium and fonts-nanum (Korean): the web console's end-to-end test drives it headless and screenshots it.
apt_packages=()
for package in redis-server tesseract-ocr tesseract-ocr-eng tesseract-ocr-kor ffmpeg poppler-utils fonts-dejavu-core \
  libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress chromium fonts-nanum; do
  dpkg -s "$package" >/dev/null 2>&1 || apt_packages+=("$package")
done
if [ ${#apt_packages[@]} -gt 0 ]; then
  echo "[docconv] installing Debian packages: ${apt_packages[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${apt_packages[@]}" >/dev/null
  # Debian starts a system redis on 6379; docconv runs its own on a private port.
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[docconv] installing npm packages"
  # `npm install` (not `npm ci`): npm 11 writes lock files without other platforms' optional
  # binaries (@swc/core-*) and then refuses them in `npm ci`. The lock file still pins versions.
  npm install --no-audit --no-fund --loglevel=error
fi

# Python tools in .venv, from requirements pinned by version and hash (python/requirements/*.txt);
# reinstalled only when those files change. Today: schemathesis, which fuzzes the API in the
# reliability suite.
requirements=(python/requirements/test-tools.txt)
stamp=$(cat "${requirements[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -x .venv/bin/python ] || [ "$(cat .venv/.requirements.sha256 2>/dev/null)" != "$stamp" ]; then
  echo "[docconv] installing Python tools into .venv"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  for file in "${requirements[@]}"; do
    .venv/bin/pip install --quiet --disable-pip-version-check --require-hashes -r "$file"
  done
  echo "$stamp" > .venv/.requirements.sha256
fi

echo "[docconv] building"
npm run --silent build
