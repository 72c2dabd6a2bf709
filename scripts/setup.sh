#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: installs what is missing (Debian packages, a venv holding the
# torch wheel that provides libtorch), then configures and builds Reef incrementally.
# Sourced, not executed: it exports REEF_BUILD_DIR for the caller.
set -euo pipefail
REEF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# REEF_TORCH=2.8.0 builds against another torch wheel in its own venv and build folder (e.g. the
# version fish-speech pins); the default set-up stays on 2.13.0.
REEF_TORCH_VERSION="${REEF_TORCH:-2.13.0}"
# REEF_VENVS_DIR: a folder outside the clone where the venvs live and last (CI: .ci/run), so a fresh
# clone on a machine that ran CI before downloads no torch (the 2.8.0 CUDA wheel is 6.5 GB
# unpacked, ~10 minutes of pip beside the main build). Unset, they are in the clone (.venv...).
if [[ -n ${REEF_VENVS_DIR:-} ]]; then
  REEF_VENV="${REEF_VENV:-$REEF_VENVS_DIR/torch-$REEF_TORCH_VERSION}"
  REEF_CLIENTS_VENV="${REEF_CLIENTS_VENV:-$REEF_VENVS_DIR/clients}"
fi
if [[ $REEF_TORCH_VERSION == 2.13.0 ]]; then
  REEF_BUILD_DIR="${REEF_BUILD_DIR:-$REEF_ROOT/build}"
  REEF_VENV="${REEF_VENV:-$REEF_ROOT/.venv}"
else
  REEF_BUILD_DIR="${REEF_BUILD_DIR:-$REEF_ROOT/build-torch$REEF_TORCH_VERSION}"
  REEF_VENV="${REEF_VENV:-$REEF_ROOT/.venv-torch$REEF_TORCH_VERSION}"
fi
REEF_JOBS="${REEF_JOBS:-2}"
# REEF_CMAKE_ARGS: extra configure options, e.g. "-DREEF_BUILD_GUI=OFF" (CI's libtorch 2.8.0 step).

REEF_APT_PACKAGES=(
  cmake ninja-build pkg-config g++ python3-venv
  ccache mold                                          # compiler cache and linker: a rebuild in minutes
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n   # lrelease for ui/translations, Qt's own zh/ja strings
  portaudio19-dev libsndfile1-dev libsoxr-dev
  libebur128-dev librubberband-dev libzip-dev         # loudness, pace, EPUB import (issue #48)
  libflac-dev                                          # chapter marks in FLAC exports
  ffmpeg                                               # a second loudness meter in the tests (ebur128 filter)
  libspdlog-dev libfmt-dev nlohmann-json3-dev libpcre2-dev libcli11-dev
  libcurl4-openssl-dev libcpp-httplib-dev              # the remote backend's HTTP client; reef-cli serve's server
  qtkeychain-qt6-dev                                   # server keys in the desktop's secret store
  libhwy-dev                                           # Highway: the SIMD CPU kernels, runtime-dispatched
  g++-aarch64-linux-gnu qemu-user libhwy-dev:arm64     # the kernels cross-built for aarch64, tested under qemu
  xvfb xauth fonts-wqy-microhei                       # the windows' tests and screenshots (CJK text)
  help2man librsvg2-bin appstream desktop-file-utils   # man page, icons, and checking the install tree
  cmark-gfm                                            # renders the PR report in its test
  time                                                 # /usr/bin/time -v: peak RSS in bench/quant_study.sh
)

# What scripts/fuzz.sh adds: clang 14 (Debian 12's) with libFuzzer and the sanitizer runtimes.
REEF_FUZZ_APT_PACKAGES=(clang libclang-rt-dev)

source "$REEF_ROOT/scripts/torch_wheel.sh"

reef_log() { printf '\033[1;34m[reef]\033[0m %s\n' "$*"; }

reef_install_apt() {
  local missing=()
  for p in "${REEF_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    reef_log "installing Debian packages: ${missing[*]}"
    local sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    # arm64 packages (the cross check's Highway) come through Debian's multiarch
    if [[ " ${missing[*]} " == *":arm64 "* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
      $sudo dpkg --add-architecture arm64
    fi
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    reef_log "Debian packages: all present"
  fi
}

# reef_make_venv DIR PACKAGE...: a venv with these packages. A new one is made beside DIR and
# renamed into place once pip succeeded, so an interrupted install never leaves a venv that looks
# whole, and two runs making the same venv at once keep one of them. One that exists (a broken
# one in a clone) is installed into where it is. pip runs as `python -m pip`: a renamed venv's own
# bin/pip script names the folder it was made in.
reef_make_venv() {
  local dir=$1; shift
  if [[ -d $dir ]]; then
    "$dir/bin/python" -m pip install -q --disable-pip-version-check --no-cache-dir "$@"
    return
  fi
  local tmp="$dir.tmp-$$"
  rm -rf "$tmp" && mkdir -p "$(dirname "$dir")"
  python3 -m venv "$tmp" &&
    "$tmp/bin/python" -m pip install -q --disable-pip-version-check --no-cache-dir "$@" ||
    { rm -rf "$tmp"; return 1; }
  mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"   # another run's venv got there first: keep it
}

# The venv alone (no cmake arguments): CI creates the torch 2.8.0 one in the background while the
# main build compiles (.ci/run), since that step is a download.
reef_install_torch_venv() {
  if [[ -x "$REEF_VENV/bin/python" ]] &&
     "$REEF_VENV/bin/python" -c "import torch,sys; sys.exit(0 if torch.__version__.startswith('$REEF_TORCH_VERSION') else 1)" 2>/dev/null; then
    reef_log "libtorch: torch $REEF_TORCH_VERSION already in $REEF_VENV"
  else
    reef_log "creating venv $REEF_VENV with torch==$REEF_TORCH_VERSION (provides libtorch)"
    # --no-cache-dir: a CUDA build is ~3 GB of wheels that pip would also keep in ~/.cache/pip.
    reef_make_venv "$REEF_VENV" "torch==$REEF_TORCH_VERSION"
  fi
}

reef_install_torch() {
  reef_install_torch_venv
  REEF_TORCH_CMAKE="$("$REEF_VENV/bin/python" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
  # A CUDA build of the wheel without a CUDA toolkit goes through cmake/ReefTorchWheel.cmake
  # (scripts/torch_wheel.sh): its CPU libraries only, or with REEF_TORCH_WHEEL_CUDA=1 its CUDA
  # libraries too and Reef's CUDA code paths compiled (CI's torch 2.8.0 step: the CUDA build on a
  # CPU machine). REEF_TORCH_WHEEL_CPU=1/0 forces the wheel route on or off.
  reef_torch_wheel_args "$REEF_VENV/bin/python" "${REEF_TORCH_WHEEL_CUDA:-0}"
}

# The real clients tests/remote/real_clients.py drives reef-cli serve with (the OpenAI Python SDK;
# ormsgpack, as fish-speech's tools/api_client.py packs; the Fish Audio SDK): a small venv of their
# own. Without the network the test skips and says so.
REEF_CLIENTS_VENV="${REEF_CLIENTS_VENV:-$REEF_ROOT/.venv-clients}"
REEF_CLIENT_PACKAGES=(openai ormsgpack fish-audio-sdk)
reef_install_clients() {
  if "$REEF_CLIENTS_VENV/bin/python" -c "import openai, ormsgpack, fish_audio_sdk" 2>/dev/null; then
    reef_log "client venv: ${REEF_CLIENT_PACKAGES[*]} present"
  else
    reef_log "creating $REEF_CLIENTS_VENV with ${REEF_CLIENT_PACKAGES[*]} (the real-client tests)"
    reef_make_venv "$REEF_CLIENTS_VENV" "${REEF_CLIENT_PACKAGES[@]}" ||
      reef_log "warning: could not install the client venv; tst_real_clients will skip"
  fi
}

# The compiler cache (ccache) lives outside the clone, so a fresh clone on a machine that built Reef
# before compiles almost nothing (CI's second run). Its settings are in the cache's own ccache.conf,
# so a plain `ninja` in a build folder uses them too:
# - sloppiness pch_defines,time_macros: ccache's condition for precompiled headers. GCC's .gch is not
#   reproducible (two compiles of one header differ), so it only helps because ccache also caches
#   the .gch itself: a hit returns the stored file, and every object compiled against it hits too;
# - include_file_mtime,include_file_ctime: headers generated during the build (moc, the PCH) are
#   cacheable at once;
# - hash_dir false and base_dir (per build, on the launcher) the clone: objects are shared between
#   clones in different folders, RelWithDebInfo's -g included.
# REEF_CCACHE=0 builds without it; REEF_CCACHE_DIR moves it.
REEF_CCACHE_DIR="${REEF_CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reef/ccache}"
reef_build_tool_args() {
  REEF_BUILD_TOOL_ARGS=()
  if [[ ${REEF_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null; then
    mkdir -p "$REEF_CCACHE_DIR"
    local conf="$REEF_CCACHE_DIR/ccache.conf"
    if [[ ! -f $conf ]]; then
      printf '%s\n' "sloppiness = pch_defines,time_macros,include_file_mtime,include_file_ctime" \
        "hash_dir = false" "max_size = 12G" > "$conf"
    fi
    REEF_BUILD_TOOL_ARGS+=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_DIR=$REEF_CCACHE_DIR;CCACHE_BASEDIR=$REEF_ROOT;ccache")
  fi
  # mold links the ~100 test binaries (each against libtorch) several times faster than GNU ld.
  if [[ ${REEF_MOLD:-1} != 0 ]] && command -v mold >/dev/null; then
    REEF_BUILD_TOOL_ARGS+=(-DREEF_LINKER=mold)
  fi
}

reef_configure_and_build() {
  if [[ ! -f "$REEF_BUILD_DIR/CMakeCache.txt" ]]; then
    reef_log "configuring $REEF_BUILD_DIR (Release)"
    cmake -S "$REEF_ROOT" -B "$REEF_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$REEF_TORCH_CMAKE" -DREEF_VENV_PYTHON="$REEF_VENV/bin/python" "${REEF_TORCH_CMAKE_ARGS[@]}" \
      -DREEF_CLIENTS_PYTHON="$REEF_CLIENTS_VENV/bin/python" "${REEF_BUILD_TOOL_ARGS[@]}" \
      ${REEF_CMAKE_ARGS:-}
  elif [[ -n ${REEF_CMAKE_ARGS:-} ]]; then
    cmake "$REEF_BUILD_DIR" ${REEF_CMAKE_ARGS}   # a later run's options apply to the existing build too
  fi
  reef_log "building (-j$REEF_JOBS)"
  cmake --build "$REEF_BUILD_DIR" -j "$REEF_JOBS"
}

reef_setup() {
  reef_install_apt
  reef_install_torch
  reef_install_clients
  reef_build_tool_args
  reef_configure_and_build
}
