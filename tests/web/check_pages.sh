#!/usr/bin/env bash
# ctest "web: …": exports scenarios as web pages (topocast-cli html) and opens them in Debian's
# Chromium, headless and offline, as a student's browser would:
#   - the default 8×8×8 page is at most 3 MB and names no file, script or style outside itself;
#   - it runs with no console error and no Content-Security-Policy violation;
#   - #step=K opens at step K: "Step K of N" and the number of nodes holding the data equal
#     core's schedule (topocast-cli schedule --json), at step 1 and at the last step;
#   - something is drawn: the step-1 picture shows a receiving node in its green beyond the
#     legend's swatch, the last step's shows many nodes holding the data in their blue, and the
#     two pictures differ;
#   - a compare scenario shows both sides, titled, each with its narration, on one timeline, and
#     its controls stay inside a 1000-px-high window;
#   - the step's receivers get white arrowheads, drawn over the node labels;
#   - a page made in a colour mode draws it: the contention preset's shared channel at step 4 in
#     the contention colour, the source map's best sources white, its legend and scale named;
#   - predict mode: typed guesses for steps 1 and 2 are graded right, missed and wrong as core's
#     schedule has it, the score adds up, and the graded step shows the missed and wrong nodes;
#   - a scenario whose title and description hold HTML and script exports as inert text: the page
#     works, shows the text, and no script of the scenario's ran.
#
#   check_pages.sh TOPOCAST_CLI SOURCE_DIR
set -euo pipefail
cli=$1 src=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_pages: $*" >&2; exit 1; }
browser=$(command -v chromium || true)
[ -n "$browser" ] || fail "chromium is not installed (scripts/install-deps.sh installs it)"

# Headless Chromium with a profile of its own (ctest runs tests side by side) and software WebGL.
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --enable-unsafe-swiftshader --user-data-dir="$work/profile" \
    --no-first-run --disable-background-networking --enable-logging=stderr --v=0 --window-size=1200,900 "$@"
}
# Console lines of the page, less the GPU's performance notes.
console_problems() { grep ':CONSOLE' "$1" | grep -v 'GPU stall due to ReadPixels' || true; }

# --- the default scenario -------------------------------------------------------------------
"$cli" html --scenario "$src/resources/scenarios/default.json" --out "$work/default.html" >/dev/null
size=$(stat -c %s "$work/default.html")
[ "$size" -le $((3 * 1024 * 1024)) ] || fail "the default page is $size bytes, over 3 MB"
grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-" "$work/default.html" ||
  fail "the page states no Content-Security-Policy with default-src 'none' and hashed scripts"
if grep -Eq '<(script|img|iframe|link|source|video|audio)[^>]* (src|href)=' "$work/default.html"; then
  fail "the page names an outside resource: $(grep -Eo '<(script|img|iframe|link|source|video|audio)[^>]* (src|href)=[^>]*' "$work/default.html" | head -1)"
fi

"$cli" schedule --scenario "$src/resources/scenarios/default.json" --json --out "$work/default.json" >/dev/null
read -r steps holders1 holdersN < <(python3 - "$work/default.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
steps = d["steps"]
def holders(k):
    return 1 + len({tuple(t["to"]) for t in d["transfers"] if t["step"] <= k})
print(steps, holders(1), holders(steps))
PY
)
for k in 1 "$steps"; do
  want=$([ "$k" = 1 ] && echo "$holders1" || echo "$holdersN")
  chrome --dump-dom "file://$work/default.html#step=$k" >"$work/dom$k.html" 2>"$work/log$k.txt" || fail "chromium failed on #step=$k"
  grep -q 'data-ready="true"' "$work/dom$k.html" || fail "the page did not start at #step=$k: $(console_problems "$work/log$k.txt")"
  grep -q "data-step=\"$k\"" "$work/dom$k.html" || fail "#step=$k did not open step $k"
  grep -q "Step $k of $steps<" "$work/dom$k.html" || fail "#step=$k does not say \"Step $k of $steps\""
  grep -q ">$want of 512 nodes hold the data<" "$work/dom$k.html" ||
    fail "#step=$k should say $want of 512 nodes hold the data (core's schedule): $(grep -o '<p id="holders">[^<]*' "$work/dom$k.html")"
  problems=$(console_problems "$work/log$k.txt")
  [ -z "$problems" ] || fail "the console at #step=$k: $problems"
done

# --- what is drawn, on the 8×8 corner broadcast -------------------------------------------------
"$cli" html --scenario "$src/resources/scenarios/cang-wu-8x8-corner.json" --out "$work/corner.html" >/dev/null
for k in 0 1 6; do
  chrome --screenshot="$work/corner$k.png" "file://$work/corner.html#step=$k" 2>"$work/shot$k.txt" >/dev/null ||
    fail "chromium could not take the picture of step $k"
done
python3 - "$here" "$work/corner1.png" "$work/corner6.png" "$work/corner0.png" <<'PY' || fail "the pictures do not show the steps (see above)"
import sys
sys.path.insert(0, sys.argv[1])
import pngstats
_, _, first = pngstats.read_png(sys.argv[2])
_, _, last = pngstats.read_png(sys.argv[3])
_, _, start = pngstats.read_png(sys.argv[4])
# Direction: step 1 adds a white arrowhead at its receiver (5,2), drawn over the node labels.
white = (255, 255, 255)
added = pngstats.count_near(first, white, 12) - pngstats.count_near(start, white, 12)
print("step 1 adds %d white pixels (the arrowhead at (5,2)) to the picture before it" % added)
assert added > 60, "step 1 shows no arrowhead at its receiver"
green, blue, background = (0, 158, 115), (0x56, 0xB4, 0xE9), (0x17, 0x1A, 0x1F)
swatch = 16 * 16 + 60  # the legend's swatch of the colour, and its border's blend
g1, b1, bN = (pngstats.count_near(first, green, 40), pngstats.count_near(first, blue, 40),
              pngstats.count_near(last, blue, 40))
drawn = sum(1 for row in first for p in row if max(abs(p[i] - background[i]) for i in range(3)) > 30)
changed = sum(1 for ra, rb in zip(first, last) for a, b in zip(ra, rb) if a != b)
print("step 1: %d green pixels, %d blue; step 6: %d blue; %d pixels drawn at step 1, %d differ" % (g1, b1, bN, drawn, changed))
assert g1 > swatch + 100, "no receiving node in green at step 1"
assert bN > b1 + 2000, "the last step shows no nodes holding the data in blue"
assert drawn > 20000, "nearly nothing is drawn"
assert changed > 2000, "step 1 and the last step look the same"
PY

# --- a page in a colour mode: the window's colours, its legend and its scale --------------------
"$cli" html --scenario "$src/resources/scenarios/baseline-binomial-torus-contention.json" --mode contention \
  --out "$work/contention.html" >/dev/null
"$cli" html --scenario "$src/resources/scenarios/cang-wu-8x8.json" --mode source-map --out "$work/map.html" >/dev/null
chrome --dump-dom "file://$work/map.html" >"$work/map-dom.html" 2>"$work/map-log.txt" || fail "chromium failed on the source map page"
grep -q '<h2 id="legend-title">Legend: Source map</h2>' "$work/map-dom.html" || fail "the source map page's legend does not name its mode"
grep -q '<div id="colour-bar">' "$work/map-dom.html" || fail "the source map page shows no colour bar"
problems=$(console_problems "$work/map-log.txt")
[ -z "$problems" ] || fail "the console on the source map page: $problems"
chrome --screenshot="$work/contention4.png" "file://$work/contention.html#step=4" 2>/dev/null >/dev/null &&
  chrome --screenshot="$work/contention3.png" "file://$work/contention.html#step=3" 2>/dev/null >/dev/null &&
  chrome --screenshot="$work/map0.png" "file://$work/map.html#step=0" 2>/dev/null >/dev/null ||
  fail "chromium could not take the pictures of the mode pages"
python3 - "$here" "$work/contention3.png" "$work/contention4.png" "$work/map0.png" <<'PY' || fail "the mode pages do not draw their modes (see above)"
import sys
sys.path.insert(0, sys.argv[1])
import pngstats
_, _, three = pngstats.read_png(sys.argv[2])
_, _, four = pngstats.read_png(sys.argv[3])
_, _, start = pngstats.read_png(sys.argv[4])
# Step 4 of the binomial broadcast on the 5x5 torus shares a channel: the contention colour
# (vermilion) on its link, which step 3 does not have beyond the legend's swatch.
vermilion, white = (0xD5, 0x5E, 0x00), (255, 255, 255)
c3, c4 = pngstats.count_near(three, vermilion, 45), pngstats.count_near(four, vermilion, 45)
# The source map from (2,3) at step 0: the 12 best sources white, as the window draws them.
w0 = pngstats.count_near(start, white, 20)
print("contention colour: %d pixels at step 3, %d at step 4; source map: %d white pixels" % (c3, c4, w0))
assert c4 > c3 + 30, "step 4's shared channel is not drawn in the contention colour"
assert w0 > 12 * 150, "the best sources are not drawn white"
PY

# --- the trees and Data held modes: the member trees' edges and every node's glyph -------------
"$cli" html --scenario "$src/resources/scenarios/ring-allreduce-torus-4x4.json" --out "$work/data.html" >/dev/null
"$cli" html --scenario "$src/resources/scenarios/hypercube-nesbt-broadcast-4cube.json" --mode trees \
  --out "$work/trees.html" >/dev/null
chrome --screenshot="$work/data0.png" "file://$work/data.html#step=0" 2>/dev/null >/dev/null &&
  chrome --screenshot="$work/data30.png" "file://$work/data.html#step=30" 2>/dev/null >/dev/null &&
  chrome --screenshot="$work/trees0.png" "file://$work/trees.html#step=0" 2>/dev/null >/dev/null &&
  chrome --screenshot="$work/trees12.png" "file://$work/trees.html#step=12" 2>/dev/null >/dev/null ||
  fail "chromium could not take the pictures of the trees and data pages"
python3 - "$here" "$work" <<'PY' || fail "the trees and data pages do not draw their modes (see above)"
import json, re, sys
sys.path.insert(0, sys.argv[1])
import pngstats
work = sys.argv[2]
def page(name):
    html = open(work + "/" + name, encoding="utf-8").read()
    return json.loads(re.search(r'<script[^>]*id="topocast-data"[^>]*>(.*?)</script>', html, re.S).group(1))
def rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))
def count(png, colours):
    """Pixels within 12 of one of `colours` in every channel (one pass; the dark page skipped)."""
    _, _, pixels = pngstats.read_png(png)
    n = 0
    for row in pixels:
        for p in row:
            if p[0] + p[1] + p[2] < 120:
                continue
            for c in colours:
                if abs(p[0] - c[0]) <= 12 and abs(p[1] - c[1]) <= 12 and abs(p[2] - c[2]) <= 12:
                    n += 1
                    break
    return n
# Data held: the glyphs' bright colours (the chunks'; not the dark cells and plates). Before step 1
# each node holds its own contribution to every chunk (16 thin bars); after the all-gather every
# node holds all 16 chunks whole, 16 squares of their colours each.
glyphs = page("data.html")["sides"][0]["glyphs"]["colours"]
bright = [rgb(c) for c in glyphs if sum(rgb(c)) > 300]
d0, d30 = count(work + "/data0.png", bright), count(work + "/data30.png", bright)
# Trees: before step 1 every member's edges are faded; at the last step each used edge is in its
# member's colour (the legend's first lines).
members = [rgb(e[0]) for e in page("trees.html")["legend"] if e[1].startswith("nESBT member")]
t0, t12 = count(work + "/trees0.png", members), count(work + "/trees12.png", members)
print("data held: %d chunk-coloured pixels before step 1, %d at step 30; trees: %d member-coloured pixels at step 0, %d at step 12" % (d0, d30, t0, t12))
assert len(bright) >= 16 and len(members) == 4
assert d30 > 3000 and d30 > 4 * d0, "the Data held glyphs do not show the chunks held"
assert t12 > t0 + 300, "the member trees' edges are not drawn in their colours once used"
PY

# --- a compare scenario: both sides on one timeline ---------------------------------------------
"$cli" html --scenario "$src/resources/scenarios/compare-cang-wu-8x8-paper-vs-optimal.json" --out "$work/compare.html" >/dev/null
chrome --dump-dom "file://$work/compare.html#step=3" >"$work/compare-dom.html" 2>"$work/compare-log.txt" || fail "chromium failed on the compare page"
grep -q 'data-ready="true"' "$work/compare-dom.html" || fail "the compare page did not start: $(console_problems "$work/compare-log.txt")"
grep -q 'Step 3 of 6<' "$work/compare-dom.html" || fail "the compare page does not say Step 3 of 6"
grep -q '<h2>A: cang-wu paper from (2,3) — 6 steps, TCD 71</h2>' "$work/compare-dom.html" &&
  grep -q '<h2>B: cang-wu optimal from (2,3) — 6 steps, TCD 69</h2>' "$work/compare-dom.html" ||
  fail "the compare page does not title its sides A (paper, TCD 71) and B (optimal, TCD 69)"
a=$(grep -o '<p class="narration" id="narration"[^>]*>[^<]*' "$work/compare-dom.html" | sed 's/.*>//')
b=$(grep -o '<p class="narration" id="narration-b"[^>]*>[^<]*' "$work/compare-dom.html" | sed 's/.*>//')
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] || fail "the two sides' narrations of step 3 should both be shown, and differ: '$a' / '$b'"
problems=$(console_problems "$work/compare-log.txt")
[ -z "$problems" ] || fail "the console on the compare page: $problems"
# In a 1000-px-high window the compare page's controls (Play) are on the screen, not below it.
chrome --window-size=1600,1000 --dump-dom "file://$work/compare.html#step=3" >"$work/compare-1000.html" 2>/dev/null ||
  fail "chromium failed on the compare page at 1600×1000"
bottom=$(grep -o 'data-controls-bottom="[0-9]*"' "$work/compare-1000.html" | grep -o '[0-9]*')
[ -n "$bottom" ] && [ "$bottom" -le 1000 ] || fail "the compare page's controls end at ${bottom:-?} px, below a 1000-px window"

# --- predict mode, as a student plays it: type the guesses, check, read the verdict and score ------
click() { echo "document.getElementById('$1').click(); document.getElementById('$2').textContent"; }
guess() {
  echo "var g = document.getElementById('guess'); g.value = '$1'; g.dispatchEvent(new Event('input'));" \
       "document.getElementById('check').click(); document.getElementById('verdict').textContent"
}
timeout 180 python3 "$here/drive.py" "$browser" "file://$work/corner.html" "$work/profile-drive" --screenshot "$work/predict.png" \
  "$(click predict verdict)" "$(guess '(5,2)')" "$(guess '(1,5) (0,1)')" \
  "document.getElementById('score').textContent" "document.getElementById('step-counter').textContent" \
  >"$work/predict.txt" 2>&1 || { cat "$work/predict.txt" >&2; fail "could not drive predict mode in Chromium"; }
expected='"Which nodes receive in step 1? Click them (or type their names), then Check."
"Step 1: 1 right, 0 missed (none), 0 wrong (none). Now guess step 2."
"Step 2: 1 right, 1 missed ((5,5)), 1 wrong ((0,1)). Now guess step 3."
"Score: 2 right, 1 missed, 1 wrong over 2 steps"
"Step 2 of 6"'
[ "$(cat "$work/predict.txt")" = "$expected" ] ||
  fail "predict mode on the 8×8 corner broadcast (steps 1 and 2: (5,2), then (1,5) and (5,5)) said:
$(cat "$work/predict.txt")
expected:
$expected"
python3 - "$here" "$work/predict.png" <<'PY' || fail "the graded step does not show the missed and wrong nodes in their colours"
import sys
sys.path.insert(0, sys.argv[1])
import pngstats
_, _, rows = pngstats.read_png(sys.argv[2])
missed, wrong = pngstats.count_near(rows, (0xD5, 0x5E, 0x00), 30), pngstats.count_near(rows, (0xF2, 0x59, 0xD9), 30)
print("graded step 2: %d pixels in the missed colour, %d in the wrong colour" % (missed, wrong))
assert missed > 16 * 16 + 100 and wrong > 16 * 16 + 100
PY

# --- a hostile scenario: HTML and script in its texts stay text --------------------------------
python3 - "$src/resources/scenarios/cang-wu-4x4.json" "$work/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["title"] = "</script><script>document.body.setAttribute(\"data-pwned\",\"title\")</script><b>bold</b>"
d["description"] = "<img src=x onerror=\"document.body.setAttribute('data-pwned','description')\"> & \u2028 --> <!--"
json.dump(d, open(sys.argv[2], "w"))
PY
"$cli" html --scenario "$work/hostile.json" --out "$work/hostile.html" >/dev/null
chrome --dump-dom "file://$work/hostile.html" >"$work/hostile-dom.html" 2>"$work/hostile-log.txt" || fail "chromium failed on the hostile page"
grep -q 'data-ready="true"' "$work/hostile-dom.html" || fail "the hostile page did not start: $(console_problems "$work/hostile-log.txt")"
if grep -q 'data-pwned="' "$work/hostile-dom.html"; then fail "a script from the scenario's texts ran"; fi
grep -q '<h1 id="title">&lt;/script&gt;&lt;script&gt;' "$work/hostile-dom.html" || fail "the hostile title is not shown as text"
grep -q '<p id="description">&lt;img src=x onerror=' "$work/hostile-dom.html" || fail "the hostile description is not shown as text"
problems=$(console_problems "$work/hostile-log.txt")
[ -z "$problems" ] || fail "the console on the hostile page: $problems"
echo "check_pages: default page $size bytes; steps 1 and $steps right ($holders1 and $holdersN of 512 hold the data); pictures drawn; hostile texts inert"
