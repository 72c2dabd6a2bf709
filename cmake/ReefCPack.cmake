# CPack: `cpack -G DEB` -> reef_<version>_amd64.deb, `cpack -G TGZ` -> reef-<version>-Linux-x86_64.tar.gz
# (packaging/build-packages.sh drives both). Run from the build folder after the build.
set(CPACK_PACKAGE_NAME "reef")
set(CPACK_PACKAGE_VENDOR "Reef developers")
set(CPACK_PACKAGE_CONTACT "Reef developers <reef-dev@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "text-to-speech studio for fish-speech models")
set(CPACK_PACKAGE_DESCRIPTION
"Reef runs fish-speech text-to-speech models (OpenAudio S1-mini, S2-Pro) natively:
streaming synthesis, voice cloning from a reference clip, WAV export, and an A/B
bench of PyTorch's attention (SDPA) backends with live charts and reports.
It ships the desktop app (reef) and the command-line tool (reef-cli), with the
CPU build of libtorch bundled in /usr/lib/reef. Model weights are not included.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "reef")
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 0)   # xz on every core
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.venv/;/\\\\.git/")

# .deb: Debian's file name, dependencies computed by dpkg-shlibdeps (the bundled libtorch is a
# private library folder, so its own needs are followed but it is not looked up in Debian).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "sound")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps runs in the staging root; the .deb installs under /usr (CPack DEB default)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "usr/lib/reef")
# The one dependency no ELF file names: Qt loads its platform plugins at run time. Debian 12 ships
# them in libqt6gui6 (already a computed dependency); later releases split them out.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
set(CPACK_DEBIAN_COMPRESSION_TYPE "xz")

# tarball: one top folder, relocatable (every path inside is relative to the programs)
set(CPACK_PACKAGE_FILE_NAME "reef-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")   # the .deb keeps DEB-DEFAULT
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_BINARY_DIR}/packages")
include(CPack)
