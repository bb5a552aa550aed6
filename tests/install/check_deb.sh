#!/usr/bin/env bash
# ctest "install: …": builds the Debian package with CPack and checks it as apt would take it —
# its files (the three programs, presets, desktop entry, metadata, icons, MIME type, manual pages),
# its Depends (Debian 12 package names: the Qt, Qt3D, FFmpeg and Open MPI libraries the programs
# link, plus the runtime pieces no link names) and that `apt-get install ./topocast_*.deb`
# resolves (simulated: nothing is installed).
#
#   check_deb.sh BUILD_DIR VERSION
set -euo pipefail
build=$(cd "$1" && pwd) version=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_deb: $*" >&2; exit 1; }

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb=$(find "$work" -maxdepth 1 -name "topocast_${version}_*.deb")
[ -n "$deb" ] || fail "cpack wrote no topocast_${version}_*.deb: $(ls "$work")"

[ "$(dpkg-deb -f "$deb" Package)" = topocast ] || fail "the package is not called topocast"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's version is not $version"
contents=$(dpkg-deb -c "$deb" | awk '{print $NF}')
for f in ./usr/bin/topocast ./usr/bin/topocast-cli ./usr/bin/topocast-mpi \
         ./usr/share/topocast/scenarios/default.json ./usr/share/topocast/exercises/broadcast-4x4-correct.csv \
         ./usr/share/applications/org.topocast.Topocast.desktop ./usr/share/metainfo/org.topocast.Topocast.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/org.topocast.Topocast.svg \
         ./usr/share/icons/hicolor/48x48/apps/org.topocast.Topocast.png \
         ./usr/share/mime/packages/org.topocast.Topocast.xml \
         ./usr/share/man/man1/topocast.1.gz ./usr/share/man/man1/topocast-cli.1.gz ./usr/share/man/man1/topocast-mpi.1.gz \
         ./usr/share/doc/topocast/copyright ./usr/share/doc/topocast/changelog.gz; do
  grep -qxF "$f" <<<"$contents" || fail "the package lacks $f"
done
# Stripped: the programs without their debug information stay a few tens of MiB.
size=$(dpkg-deb -f "$deb" Installed-Size)
[ "$size" -lt 200000 ] || fail "the package installs $size KiB: were the programs stripped?"

depends=$(dpkg-deb -f "$deb" Depends)
echo "check_deb: Depends: $depends"; echo
for want in libqt6gui6 libqt63drender6 libqt6widgets6 libavcodec libswscale libopenmpi libexpat1 libfmt libgl1-mesa-dri openmpi-bin fonts-dejavu-core; do
  grep -q "\(^\|, \)$want" <<<"$depends" || fail "Depends does not name $want: $depends"
done
# Every name in Depends is a Debian package apt knows (installed here, as the build needed it).
for name in $(sed 's/([^)]*)//g; s/|/,/g; s/,/ /g' <<<"$depends"); do
  dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed" ||
    apt-cache show "$name" >/dev/null 2>&1 || fail "Depends names $name, which is not a Debian package here"
done
out=$(apt-get install -s -q "$deb" 2>&1) || fail "apt-get install -s $deb does not resolve: $out"
grep -q "^Inst topocast " <<<"$out" || fail "apt-get install -s $deb would not install topocast: $out"
# Debian's own checker: no errors (its warnings are printed for the record).
command -v lintian >/dev/null || fail "lintian was not found (scripts/install-deps.sh installs it)"
report=$(lintian --tag-display-limit 0 "$deb" 2>&1 || true)
echo "check_deb: lintian:"; echo "$report"
grep -q '^E: ' <<<"$report" && fail "lintian reports errors on $(basename "$deb")"
echo "check_deb: $(basename "$deb"), $size KiB installed, apt resolves it, lintian finds no error"
