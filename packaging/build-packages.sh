#!/usr/bin/env bash
# Builds Reef's packages from this checkout: the same set-up as ./test.sh (Debian packages, the
# torch venv, an incremental Release build in build/), then CPack's .deb and relocatable tarball.
# Output: build/packages/reef_<version>_amd64.deb and build/packages/reef-<version>-Linux-x86_64.tar.gz
# Usage: packaging/build-packages.sh [DEB|TGZ]...   (both by default)
set -euo pipefail
source "$(dirname "$0")/../scripts/setup.sh"
REEF_APT_PACKAGES+=(dpkg-dev file)   # CPack's DEB generator: dpkg-shlibdeps, file
reef_setup
generators="${*:-DEB TGZ}"
for g in $generators; do
  reef_log "cpack -G $g (stripping libtorch and compressing ~340 MB takes a few minutes)"
  (cd "$REEF_BUILD_DIR" && cpack -G "$g" >"$REEF_BUILD_DIR/cpack-$g.log" 2>&1) ||
    { tail -40 "$REEF_BUILD_DIR/cpack-$g.log"; exit 1; }
done
reef_log "packages:"
ls -l "$REEF_BUILD_DIR"/packages/reef[_-]*.{deb,tar.gz} 2>/dev/null || true
