#!/usr/bin/env bash
# ctest "install: …": installs the build into a temporary prefix and checks what a user and a
# desktop get — the three programs and their --version, the presets and exercises, the desktop
# entry (desktop-file-validate), the AppStream metadata (appstreamcli validate), the icon's SVG
# and PNG sizes, the scenario MIME type (update-mime-database, and every preset recognised by its
# magic) and the manual pages — then runs the installed topocast-cli on an installed preset from
# another directory, and hands a drawing command to the installed app.
#
#   check_install.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1 src=$2 version=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/usr
fail() { echo "check_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" --strip >/dev/null

for p in topocast topocast-cli topocast-mpi; do
  [ -x "$prefix/bin/$p" ] || fail "bin/$p was not installed"
  got=$("$prefix/bin/$p" --version)
  [ "$got" = "$p $version" ] || fail "$p --version printed '$got', expected '$p $version'"
done

want=$(find "$src/resources/scenarios" -name '*.json' | wc -l)
got=$(find "$prefix/share/topocast/scenarios" -name '*.json' | wc -l)
[ "$got" -eq "$want" ] && [ "$got" -gt 10 ] || fail "share/topocast/scenarios holds $got presets, the source $want"
want=$(find "$src/resources/exercises" -type f | wc -l)
got=$(find "$prefix/share/topocast/exercises" -type f | wc -l)
[ "$got" -eq "$want" ] && [ "$got" -gt 0 ] || fail "share/topocast/exercises holds $got files, the source $want"

id=org.topocast.Topocast
desktop=$prefix/share/applications/$id.desktop
[ -f "$desktop" ] || fail "no desktop entry at share/applications/$id.desktop"
desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $id.desktop"
grep -qx 'Exec=topocast %f' "$desktop" || fail "the desktop entry does not open a file with topocast"
metainfo=$prefix/share/metainfo/$id.metainfo.xml
[ -f "$metainfo" ] || fail "no AppStream metadata at share/metainfo/$id.metainfo.xml"
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli rejects $id.metainfo.xml"
grep -q "<release version=\"$version\"" "$metainfo" || fail "the AppStream metadata has no release $version"

[ -f "$prefix/share/icons/hicolor/scalable/apps/$id.svg" ] || fail "no scalable icon"
for size in 16 24 32 48 64 128 256; do
  png=$prefix/share/icons/hicolor/${size}x${size}/apps/$id.png
  [ -f "$png" ] || fail "no ${size}×${size} icon"
  # The PNG's own width and height (IHDR), and at least half its pixels opaque: the icon's rounded
  # square, not a transparent page.
  python3 - "$here/../web" "$png" "$size" <<'PY' || fail "the ${size}×${size} icon is not a ${size}×${size} picture of the icon"
import sys
sys.path.insert(0, sys.argv[1])
import pngstats
w, h, rows = pngstats.read_png(sys.argv[2])
size = int(sys.argv[3])
assert (w, h) == (size, size), (w, h)
opaque = sum(1 for row in rows for p in row if p[3] > 128)
assert opaque >= w * h // 2, (opaque, w * h)
PY
done

for f in user-guide.md user-guide/play.png guide.md cli.md formats.md teaching.md app-window-8x8x8.png; do
  [ -f "$prefix/share/doc/topocast/$f" ] || fail "share/doc/topocast/$f (Help ▸ User guide and its pictures) was not installed"
done

mime=$prefix/share/mime
[ -f "$mime/packages/$id.xml" ] || fail "no MIME type at share/mime/packages/$id.xml"
out=$(update-mime-database "$mime" 2>&1) || fail "update-mime-database rejects $id.xml: $out"
grep -q 'topocast scenario' "$mime/application/x-topocast-scenario.xml" 2>/dev/null ||
  fail "update-mime-database did not register application/x-topocast-scenario"
for f in "$prefix"/share/topocast/scenarios/*.json; do
  head -c 512 "$f" | grep -q '"topocast-scenario"' || fail "$(basename "$f") would not be recognised as a scenario (no \"topocast-scenario\" in its first 512 bytes)"
done

# Manual pages, compressed as Debian keeps them.
for p in topocast topocast-cli topocast-mpi; do
  [ -f "$prefix/share/man/man1/$p.1.gz" ] || fail "no manual page share/man/man1/$p.1.gz"
  page=$(gzip -dc "$prefix/share/man/man1/$p.1.gz")
  grep -q "^\.TH \"\?${p^^}\"\? \"\?1\"\?" <<<"$page" || fail "$p.1 has no .TH $p 1 header"
  grep -q "$version" <<<"$page" || fail "$p.1 does not name version $version"
  grep -qF '???' <<<"$page" && fail "$p.1 holds ??? where a character was lost"
done
gzip -dc "$prefix/share/man/man1/topocast.1.gz" | grep -q 'scenario' || fail "topocast.1 does not list --scenario"
gzip -dc "$prefix/share/man/man1/topocast-cli.1.gz" | grep -q 'source-map' || fail "topocast-cli.1 does not list its commands"
gzip -dc "$prefix/share/man/man1/topocast-mpi.1.gz" | grep -q 'mpirun' || fail "topocast-mpi.1 has no example"
# The licence and the changelog where Debian keeps them.
grep -q '^License: MIT' "$prefix/share/doc/topocast/copyright" || fail "share/doc/topocast/copyright does not name the MIT licence"
grep -q 'three.js' "$prefix/share/doc/topocast/copyright" || fail "the copyright file does not name the three.js the app carries"
gzip -dc "$prefix/share/doc/topocast/changelog.gz" | grep -q "^topocast ($version)" || fail "no changelog.gz for $version"

# The installed programs from elsewhere: a preset by its installed path, and a drawing command
# that topocast-cli hands to the installed app beside it.
mkdir "$work/elsewhere"
cd "$work/elsewhere"
out=$("$prefix/bin/topocast-cli" schedule --scenario "$prefix/share/topocast/scenarios/default.json")
grep -q 'steps 9 .*TCD 525' <<<"$out" || fail "the installed topocast-cli on the installed default preset printed: $out"
out=$(env -u TOPOCAST_APP "$prefix/bin/topocast-cli" render --help)
grep -q -- '--out' <<<"$out" || fail "the installed topocast-cli did not hand render --help to the installed app: $out"
"$prefix/bin/topocast-cli" html --scenario "$prefix/share/topocast/scenarios/cang-wu-4x4.json" --out page.html >/dev/null ||
  fail "the installed topocast-cli could not write a web page"
grep -q 'three.js r1' page.html || fail "the installed program's web page lacks three.js"
echo "check_install: $prefix holds the programs, presets, desktop entry, metadata, icons, MIME type and manual pages"
