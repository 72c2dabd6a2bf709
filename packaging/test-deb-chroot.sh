#!/usr/bin/env bash
# Installs Reef's .deb into a clean Debian root and uses it there, where neither this source tree
# nor its venv exists; then removes it and shows that nothing is left behind. The relocatable
# tarball is tried in the same root from two folders.
#
#   packaging/build-packages.sh            # build/packages/reef_<v>_amd64.deb + reef-<v>-Linux-x86_64.tar.gz
#   packaging/test-deb-chroot.sh [OUTDIR]  # needs root (debootstrap, chroot, mount); ~3 minutes
#
# Why a chroot and not a container: this machine has no container runtime, and a debootstrap'ed
# root is exactly "a fresh Debian with only the package's declared dependencies": apt resolves them
# from the .deb's own Depends line, and / of the build host (the checkout, the venv, the -dev
# packages, the compiler's libgomp) is out of sight. OUTDIR (default build/package-test) receives the
# screenshot, the WAVs and the log.
set -euo pipefail
REEF_ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PKG_DIR="${REEF_BUILD_DIR:-$REEF_ROOT/build}/packages"
OUT="$(mkdir -p "${1:-$REEF_ROOT/build/package-test}" && cd "${1:-$REEF_ROOT/build/package-test}" && pwd)"
CHROOT="${REEF_CHROOT:-/var/tmp/reef-chroot}"
SUITE="${REEF_DEBIAN_SUITE:-bookworm}"
MIRROR="${REEF_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

log() { printf '\033[1;34m[pkg-test]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[pkg-test] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || fail "run as root (debootstrap, chroot and mount need it)"
deb=$(ls "$PKG_DIR"/reef_*_amd64.deb 2>/dev/null | head -1)
tgz=$(ls "$PKG_DIR"/reef-*-Linux-*.tar.gz 2>/dev/null | head -1)
[[ -n $deb && -n $tgz ]] || fail "no packages in $PKG_DIR: run packaging/build-packages.sh first"
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null

mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
in_root() { chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
# the tester: an ordinary user with an ordinary home, as a desktop user would run Reef
as_user() { chroot --userspec=tester:tester "$CHROOT" /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \
              HOME=/home/tester XDG_RUNTIME_DIR=/tmp/runtime-tester "$@"; }
# everything on the root's filesystem but the package manager's own state, logs, caches and homes
snapshot() {
  in_root find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /run \
      -o -path /home -o -path /root -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/cache \
      -o -path /var/log -o -path /var/tmp -o -path /etc/ld.so.cache \) -prune -o -print | LC_ALL=C sort
}

log "fresh $SUITE root in $CHROOT (debootstrap --variant=minbase)"
rm -rf "$CHROOT"
debootstrap --variant=minbase "$SUITE" "$CHROOT" "$MIRROR" >"$OUT/debootstrap.log" 2>&1 ||
  { tail -20 "$OUT/debootstrap.log"; fail "debootstrap"; }
for m in proc dev dev/pts; do
  mkdir -p "$CHROOT/$m"
  case $m in proc) mount -t proc proc "$CHROOT/proc" ;; *) mount --bind "/$m" "$CHROOT/$m" ;; esac
  mounts+=("$CHROOT/$m")
done
mount -t tmpfs shm "$CHROOT/dev/shm" 2>/dev/null && mounts+=("$CHROOT/dev/shm") || true
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
[[ -e "$CHROOT$REEF_ROOT" ]] && fail "the source tree is visible in the root"

log "test harness only (not Reef's dependencies): Xvfb for the window, a user to run as"
in_root apt-get update -q >/dev/null
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends xvfb xauth >"$OUT/apt-harness.log" 2>&1 ||
  { tail -20 "$OUT/apt-harness.log"; fail "installing xvfb"; }
in_root useradd --create-home --shell /bin/sh tester
mkdir -p "$CHROOT/tmp/runtime-tester" && chroot "$CHROOT" chown tester:tester /tmp/runtime-tester
chmod 700 "$CHROOT/tmp/runtime-tester"
snapshot >"$OUT/before.txt"

log "apt-get install ./$(basename "$deb") (dependencies from the package's Depends)"
mkdir -p "$CHROOT/tmp/pkg" && cp "$deb" "$tgz" "$CHROOT/tmp/pkg/"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "/tmp/pkg/$(basename "$deb")" \
  >"$OUT/apt-reef.log" 2>&1 || { tail -30 "$OUT/apt-reef.log"; fail "installing the .deb"; }
grep -E "newly installed" "$OUT/apt-reef.log" || true
touch "$CHROOT/tmp/pkg/installed.stamp"
sleep 1

log "reef-cli --version"
as_user reef-cli --version | tee "$OUT/version.txt"
grep -q "^Reef " "$OUT/version.txt" || fail "reef-cli --version"
log "libraries reef-cli loads from outside the system folders:"
in_root ldd /usr/bin/reef-cli | grep -v -E "=> /(usr/)?lib/x86_64-linux-gnu/|linux-vdso|ld-linux" | tee "$OUT/ldd-deb.txt"
grep -q "libtorch_cpu.so => /usr/bin/../lib/reef/libtorch_cpu.so" "$OUT/ldd-deb.txt" || fail "libtorch not from /usr/lib/reef"
grep -q "not found" "$OUT/ldd-deb.txt" && fail "unresolved libraries"

wav_ok() {   # a RIFF/WAVE file with audio after its header
  local f="$CHROOT$1"
  [[ -s $f && $(head -c 4 "$f") == RIFF && $(dd if="$f" bs=1 skip=8 count=4 2>/dev/null) == WAVE && $(stat -c %s "$f") -gt 4096 ]]
}
log "reef-cli demo-model + synth, as user tester"
as_user reef-cli demo-model /home/tester/demo --preset tiny
as_user reef-cli synth -m /home/tester/demo -t "Hello from the installed package." -o /home/tester/hello.wav \
  --max-new-frames 64 | tail -3
wav_ok /home/tester/hello.wav || fail "synth wrote no WAV"
cp "$CHROOT/home/tester/hello.wav" "$OUT/deb-hello.wav"

log "reef (the desktop app) under Xvfb: first run writes its demo model, generates, screenshot"
as_user xvfb-run -a -s "-screen 0 1280x860x24" env REEF_GRAB_PNG=/home/tester/reef.png REEF_GRAB_SCREEN=1 \
  REEF_GRAB_GENERATE="The packaged Reef speaks." REEF_GRAB_AFTER_MS=240000 reef >"$OUT/reef-gui.log" 2>&1 ||
  { tail -20 "$OUT/reef-gui.log"; fail "reef exited with an error"; }
[[ -s "$CHROOT/home/tester/reef.png" ]] || { tail -20 "$OUT/reef-gui.log"; fail "no screenshot"; }
cp "$CHROOT/home/tester/reef.png" "$OUT/reef-deb.png"
log "the app's data, in the user's folders:"
(cd "$CHROOT/home/tester" && find .local .config -maxdepth 4 | sort | tee "$OUT/user-data.txt")
grep -q "^.local/share/Reef/Reef/demo-tiny$" "$OUT/user-data.txt" || fail "no demo model in the user's data folder"

log "nothing written next to the programs: dpkg --verify, and no new file under /usr /opt /etc"
in_root dpkg --verify reef || fail "installed files changed"
newer=$(in_root find /usr /opt /etc -xdev -newer /tmp/pkg/installed.stamp -print)
[[ -z $newer ]] || fail "files written after installing: $newer"

log "the tarball from two folders (extracted, run, then moved and run again)"
tarname=$(basename "$tgz" .tar.gz)
in_root mkdir -p /opt/unpacked
in_root tar -xzf "/tmp/pkg/$(basename "$tgz")" -C /opt/unpacked
for dir in "/opt/unpacked/$tarname" "/home/tester/apps/reef somewhere"; do
  if [[ $dir != "/opt/unpacked/$tarname" ]]; then
    in_root mkdir -p "$(dirname "$dir")"
    in_root mv "/opt/unpacked/$tarname" "$dir"
    in_root chown -R tester:tester /home/tester/apps
  fi
  as_user "$dir/bin/reef-cli" --version | head -2
  deps=$(in_root ldd "$dir/bin/reef-cli")   # captured: grep -q on a pipe would SIGPIPE ldd under pipefail
  grep -E "libtorch_cpu|libc10|libgomp" <<<"$deps" | tee -a "$OUT/ldd-tarball.txt"
  grep -qF "libtorch_cpu.so => $dir/bin/../lib/reef/" <<<"$deps" || fail "tarball libtorch not from $dir"
  as_user "$dir/bin/reef-cli" synth -m /home/tester/demo -t "Hello from the tarball." -o /home/tester/tarball.wav \
    --max-new-frames 32 | tail -1
  wav_ok /home/tester/tarball.wav || fail "tarball synth from $dir"
  rm -f "$CHROOT/home/tester/tarball.wav"
done
in_root rm -rf /home/tester/apps /opt/unpacked

log "apt-get purge reef && apt-get autoremove --purge"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q reef >"$OUT/apt-purge.log" 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get autoremove --purge -y -q >>"$OUT/apt-purge.log" 2>&1
grep -E "^(Removing|Purging) " "$OUT/apt-purge.log" | head -5; echo "  ($(grep -c "^Removing " "$OUT/apt-purge.log") packages removed)"
in_root dpkg -s reef >/dev/null 2>&1 && fail "reef still installed"
snapshot >"$OUT/after.txt"
if ! diff -u "$OUT/before.txt" "$OUT/after.txt" >"$OUT/leftovers.diff"; then
  cat "$OUT/leftovers.diff"; fail "files left behind after purge"
fi
log "nothing left behind: $(wc -l <"$OUT/before.txt") paths before install, the same after purge"
log "PASS (screenshot: $OUT/reef-deb.png)"
