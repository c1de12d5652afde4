#!/usr/bin/env bash
# setup-tests.sh [part…]: installs the test set, what only the tests, benchmarks, SDK generation
# and chart validation need, beside the service set of scripts/setup.sh. `./scripts/test.sh` and
# the npm scripts that need a part install it (`npm test` all of them, `npm run sdks` the
# generator); nothing here is needed to run the service. Without arguments, every part. Safe to
# run again: each part runs only when what it installs is missing or its pinned version changed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh

# chromium and fonts-nanum (Korean): the web console's end-to-end test drives it headless and
# screenshots it.
browser() {
  apt_install chromium fonts-nanum
}

# The test tools' Python environment: moto (the storage contract's S3 server), schemathesis (fuzzes
# the API in the reliability suite), kubernetes-validate (the chart), the generated Python SDK's
# dependencies.
python_tools() {
  python_env .venv python/requirements/test-tools.txt
}

# Helm, built from its Go module at a pinned version, and KEDA's ScaledObject schema from KEDA's Go
# module, under .tools/: the test suite renders the chart (deploy/helm/docconv) and validates it.
helm() {
  local helm_version=v3.22.0 keda_version=v2.21.0 keda_dir
  if [ "$(cat .tools/helm.version 2>/dev/null)" != "$helm_version" ]; then
    step_begin "building helm $helm_version from its Go module"
    GOBIN="$PWD/.tools/bin" go install "helm.sh/helm/v3/cmd/helm@$helm_version"
    echo "$helm_version" >.tools/helm.version
    step_end .tools/bin/helm
  fi
  if [ "$(cat .tools/crds/keda.version 2>/dev/null)" != "$keda_version" ]; then
    step_begin "taking KEDA $keda_version's ScaledObject schema from its Go module"
    keda_dir=$(go mod download -json "github.com/kedacore/keda/v2@$keda_version" |
      node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).Dir')
    mkdir -p .tools/crds
    cp "$keda_dir/config/crd/bases/keda.sh_scaledobjects.yaml" .tools/crds/
    chmod u+w .tools/crds/keda.sh_scaledobjects.yaml
    echo "$keda_version" >.tools/crds/keda.version
    step_end
  fi
}

# stripe-mock, Stripe's own mock of its API, built from its Go module at a pinned version into
# .tools/bin: the payment tests open Checkout Sessions against it.
stripe_mock() {
  local version=v0.203.0
  if [ "$(cat .tools/stripe-mock.version 2>/dev/null)" != "$version" ]; then
    step_begin "building stripe-mock $version from its Go module"
    GOBIN="$PWD/.tools/bin" go install "github.com/stripe/stripe-mock@$version"
    echo "$version" >.tools/stripe-mock.version
    step_end .tools/bin/stripe-mock
  fi
}

# s3s-fs, an S3-compatible server that checks SigV4 signatures (presigned links and their expiry
# included), built from its crate at a pinned version into .tools/s3s-fs: the storage suite has it
# refuse altered and expired download links. --locked builds the crate's own Cargo.lock, every
# crate checked against the checksum recorded there. 0.14.1 is the last release that builds with
# Rust 1.95 (0.15 on need 1.96). The compiled crates stay in ~/.cache/docconv/cargo-target (as Go
# keeps its build cache), so another clone on the same machine installs it in seconds. It serves a
# test's few requests, so it is compiled without optimisation: 1.1 min on two cores instead of 4–11.
s3s_fs() {
  local version=0.14.1
  if [ "$(cat .tools/s3s-fs.version 2>/dev/null)" != "$version" ]; then
    step_begin "building s3s-fs $version from its crate (a minute the first time on a machine)"
    CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${DOCCONV_CACHE:-$HOME/.cache/docconv}/cargo-target}" \
      CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=0 \
      cargo install --quiet --locked --version "$version" --features binary --root .tools/s3s-fs s3s-fs
    echo "$version" >.tools/s3s-fs.version
    step_end .tools/s3s-fs
  fi
}

# openapi-generator-cli from Maven Central, under .tools/openapi-generator: `npm run sdks` generates the
# Python, Go and Java SDKs (clients/python, clients/go, clients/java) with it, and a test checks that the
# committed ones are what it makes of openapi.json.
openapi_generator() {
  local version=7.25.0
  if [ ! -f ".tools/openapi-generator/openapi-generator-cli-$version.jar" ]; then
    step_begin "installing openapi-generator-cli $version from Maven Central"
    mvn -q dependency:copy "-Dartifact=org.openapitools:openapi-generator-cli:$version" \
      -DoutputDirectory=.tools/openapi-generator
    step_end .tools/openapi-generator
  fi
}

# What the generated SDKs build with, fetched here so that their smoke tests build offline: the Go
# module's dependencies (clients/go/go.sum) into Go's module cache; the Java library's and the Maven
# plugins that compile it (clients/java/pom.xml) into ~/.m2, by compiling it once. Each again only when
# its file changes. The Python SDK's dependencies are pinned with the test tools (.venv).
sdk_dependencies() {
  local go_stamp java_stamp
  go_stamp=$(sha256sum clients/go/go.mod clients/go/go.sum | sha256sum | cut -d' ' -f1)
  if [ "$(cat .tools/sdk-go.sha256 2>/dev/null)" != "$go_stamp" ]; then
    step_begin "downloading the Go SDK's modules"
    (cd clients/go && go mod download)
    mkdir -p .tools
    echo "$go_stamp" >.tools/sdk-go.sha256
    step_end
  fi
  java_stamp=$(sha256sum clients/java/pom.xml | cut -d' ' -f1)
  if [ "$(cat .tools/sdk-java.sha256 2>/dev/null)" != "$java_stamp" ]; then
    step_begin "fetching the Java SDK's Maven dependencies"
    mvn -q -f clients/java/pom.xml dependency:go-offline compile
    echo "$java_stamp" >.tools/sdk-java.sha256
    step_end
  fi
}

all_parts=(browser python_tools helm stripe_mock s3s_fs openapi_generator sdk_dependencies)
parts=("${all_parts[@]}")
[ $# -gt 0 ] && parts=("$@")
mkdir -p .tools
setup_started=$(date +%s)
for part in "${parts[@]}"; do
  if [[ " ${all_parts[*]} " != *" $part "* ]]; then
    echo "[docconv] setup-tests.sh: no part named $part (the parts: ${all_parts[*]})" >&2
    exit 2
  fi
  "$part"
done
[ $# -gt 0 ] || echo "[docconv] the test set is in place ($(duration $(($(date +%s) - setup_started))))"
