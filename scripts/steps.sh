# What the setup scripts print, sourced by scripts/setup.sh and scripts/setup-tests.sh: each step
# says what it does before it starts, and how long it took and how big its result is when it ends.
# On a terminal the installers show their own progress (apt's downloads, pip's bars, npm's
# spinner); in a log they stay quiet and only these lines are written.

if [ -t 1 ]; then on_terminal=1; else on_terminal=0; fi

# 75 → "1m15s", 9 → "9s".
duration() {
  local seconds=$1
  if [ "$seconds" -ge 60 ]; then echo "$((seconds / 60))m$((seconds % 60))s"; else echo "${seconds}s"; fi
}

# step_begin <what it does> [<what it fetches>]
step_begin() {
  step_started=$(date +%s)
  echo "[docconv] $1${2:+ ($2)}"
}

# step_end [<folder whose size is reported>]
step_end() {
  local size=""
  [ -n "${1:-}" ] && size=", $(du -sh "$1" 2>/dev/null | cut -f1) in $1"
  echo "[docconv]   done in $(duration $(($(date +%s) - step_started)))$size"
}

# apt_install <package…>: installs the Debian packages not installed yet, saying how many and how
# much they download.
apt_install() {
  local missing=() package sudo=""
  # Installed means "install ok installed": a package removed with its configuration kept is not.
  for package in "$@"; do
    [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  step_begin "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  local bytes
  bytes=$($sudo apt-get install -y -qq --no-install-recommends --print-uris "${missing[@]}" |
    awk '{ total += $3 } END { print total + 0 }')
  echo "[docconv]   $((bytes / 1048576)) MB to download"
  if [ "$on_terminal" -eq 1 ]; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
  else
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  step_end
}

# python_env <folder> <requirements file>: a virtual environment from requirements pinned by
# version and hash, made again only when the file changes. The environment itself lives in
# ~/.cache/docconv/python/<name>-<hash of the file and the Python>, and <folder> links to it, so
# every clone on a machine shares one copy of each set of requirements.
python_env() {
  local folder=$1 requirements=$2 stamp home
  stamp=$( (sha256sum "$requirements" | cut -d' ' -f1; python3 --version) | sha256sum | cut -c1-16)
  home="${DOCCONV_CACHE:-$HOME/.cache/docconv}/python/$(basename "$folder" | tr -d .)-$stamp"
  mkdir -p "$(dirname "$home")"
  # One clone installs a set at a time; another one setting up at once waits for it.
  exec {lock}>"$home.lock"
  flock "$lock"
  if [ ! -f "$home/.complete" ]; then
    step_begin "installing $requirements into $home" "$(grep -c '^[a-zA-Z]' "$requirements") packages"
    rm -rf "$home"
    python3 -m venv "$home"
    local quiet=(--quiet)
    [ "$on_terminal" -eq 1 ] && quiet=(--progress-bar on)
    "$home/bin/pip" install "${quiet[@]}" --disable-pip-version-check --require-hashes -r "$requirements"
    touch "$home/.complete"
    step_end "$home"
  fi
  flock -u "$lock"
  if [ "$(readlink "$folder" 2>/dev/null)" != "$home" ]; then
    rm -rf "$folder"
    ln -s "$home" "$folder"
  fi
}

# timed <name> <command…>: runs the command and says how long it took; with DOCCONV_TIMES naming a
# file, adds "<name>\t<seconds>\t<exit code>" to it (.ci/run prints them all at its end).
timed() {
  local name=$1 began code=0
  shift
  began=$(date +%s)
  "$@" || code=$?
  local took=$(($(date +%s) - began))
  echo "[docconv] $name: $(duration "$took")$([ "$code" -eq 0 ] || echo ", exit code $code")"
  [ -z "${DOCCONV_TIMES:-}" ] || printf '%s\t%s\t%s\n' "$name" "$took" "$code" >>"$DOCCONV_TIMES"
  return "$code"
}
