#!/usr/bin/env bash
# The install tree is relocatable and complete (packaging/CMakeLists.txt), checked in CI without
# building a package: `cmake --install --strip` into a temporary prefix, then the prefix is moved to
# a folder whose name has a space and used from there.
#   check_install.sh BUILD_DIR TMP_DIR
# What a .deb adds on top (dependencies, a clean root, removal) is packaging/test-deb-chroot.sh.
set -euo pipefail
build=$1
work="$2/install-check"
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/first" --strip >"$work/install.log"
mv "$work/first" "$work/moved here"
p="$work/moved here"

# 1. no absolute search path anywhere: the programs look only beside themselves, and every bundled
#    library either has no search path or one relative to itself
for exe in "$p"/bin/*; do
  rp=$(readelf -d "$exe" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [[ $rp == '$ORIGIN/../lib/reef' ]] || fail "$(basename "$exe") RUNPATH is '$rp'"
done
for lib in "$p"/lib/reef/*; do
  rp=$(readelf -d "$lib" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
  [[ -z $rp || $rp == '$ORIGIN' ]] || fail "$(basename "$lib") has search path '$rp'"
done
# 2. the loader resolves libtorch inside the moved prefix (the build's venv is still on this
#    machine, so a stale absolute path would show up here), and nothing is missing
deps=$(ldd "$p/bin/reef-cli")
grep -q "not found" <<<"$deps" && fail "unresolved: $(grep 'not found' <<<"$deps")"
for so in libtorch_cpu.so libc10.so; do
  grep -q "$so => $p/bin/../lib/reef/$so" <<<"$deps" || fail "$so not loaded from the prefix"
done
# 3. it runs from there: versions, a demo model, speech
version=$("$p/bin/reef-cli" --version)
grep -q "^Reef " <<<"$version" || fail "reef-cli --version"
"$p/bin/reef-cli" demo-model "$work/demo" --preset tiny >/dev/null
"$p/bin/reef-cli" synth -m "$work/demo" -t "Installed." -o "$work/out.wav" --max-new-frames 16 >/dev/null
[[ $(head -c 4 "$work/out.wav") == RIFF && $(stat -c %s "$work/out.wav") -gt 4096 ]] || fail "no WAV from the installed reef-cli"
# 4. desktop integration files are valid, for the tools that judge them
share="$p/share"
if [[ -x "$p/bin/reef" ]]; then
  desktop-file-validate "$share/applications/io.github.reefstudio.Reef.desktop" || fail "desktop entry"
fi
appstreamcli validate --no-net "$share/metainfo/io.github.reefstudio.Reef.metainfo.xml" >"$work/appstream.log" ||
  { cat "$work/appstream.log"; fail "AppStream metainfo"; }
for size in 16 24 32 48 64 128 256 512; do
  png="$share/icons/hicolor/${size}x${size}/apps/io.github.reefstudio.Reef.png"
  # PNG signature, then the IHDR width and height as big-endian 32-bit numbers at bytes 16..23
  dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
  [[ $(head -c 4 "$png" | od -An -c | tr -d ' ') == '211PNG' && $dims == "${size}x${size}" ]] ||
    fail "icon $png is $dims"
done
[[ -s "$share/icons/hicolor/scalable/apps/io.github.reefstudio.Reef.svg" ]] || fail "scalable icon"
# 5. the man page documents every subcommand the program has
man="$share/man/man1/reef-cli.1.gz"
gzip -t "$man" || fail "man page is not gzip"
page=$(gzip -dc "$man")
grep -q '^\.SH NAME' <<<"$page" || fail "man page has no NAME"
subs=$("$p/bin/reef-cli" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}')
[[ -n $subs ]] || fail "reef-cli --help lists no subcommands"
for s in $subs; do
  grep -q "^\.SS \"reef-cli $s\"" <<<"$page" || fail "man page lacks subcommand $s"
done
[[ -f "$share/doc/reef/libtorch-licenses/LICENSE" ]] || fail "bundled libtorch without its licence"
# compile mode aot-inductor finds its exporter beside the programs (../share/reef/python)
[[ -s "$share/reef/python/reef_aoti_export.py" ]] || fail "the AOTInductor exporter is not installed"
rm -rf "$work"
echo "install tree: relocatable, libtorch bundled, desktop files valid, man page lists: $(echo $subs)"
