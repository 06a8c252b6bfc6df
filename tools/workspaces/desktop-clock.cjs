// @ts-check
// A clock in the Desktop workspace that a test or bench can read back from pixels (no OCR here):
// a terminal where a script writes the time every second, as text for people and as a bar of
// coloured blocks for programs: green, then the Unix second's low 8 bits (red 1, blue 0), green.
// The recording seek test and bench:recording read it from the console player's canvas.

/** The terminal's palette for the bar: pure colours, so no theme or font blends them. */
const PALETTE =
  "-xrm 'XTerm*color1: #ff0000' -xrm 'XTerm*color2: #00ff00' -xrm 'XTerm*color4: #0000ff'";

/** The script the terminal runs: redraws when the second changes, looking ten times a second. */
const CLOCK_LOOP = String.raw`last=
while :; do
  s=$(date +%s)
  if [ "$s" != "$last" ]; then
    last=$s
    bar='\033[42m   \033[0m '
    i=7
    while [ $i -ge 0 ]; do
      if [ $(( (s >> i) & 1 )) -eq 1 ]; then bar="$bar\033[41m   \033[0m "; else bar="$bar\033[44m   \033[0m "; fi
      i=$((i - 1))
    done
    printf "\033[H\033[2J %s\n\n $bar\033[42m   \033[0m" "$(date +%T)"
  fi
  sleep 0.1
done`;

/**
 * Shell (run as the desktop's user with DISPLAY=:1) that writes the loop to a file and starts its
 * terminal in the background, in front at 600,360, answering at once.
 */
const START_CLOCK = [
  `cat > /tmp/clock.sh <<'EOF'\n${CLOCK_LOOP}\nEOF`,
  `nohup setsid xterm -fa 'DejaVu Sans Mono' -fs 18 -bg black -fg white ${PALETTE}` +
    ' -geometry 40x4+600+360 -e /bin/sh /tmp/clock.sh > /dev/null 2>&1 &',
].join('\n');

/**
 * The Unix second modulo 256 that a screen's clock bar shows, or null when none shows. `pixels`:
 * 4 bytes a pixel, red first (a canvas's ImageData, a PNG, the recorder's screen). Each second
 * row is read as runs of one colour; a row whose runs of 8 pixels or more read green, eight of
 * red or blue, green, is the bar. Self-contained: page code runs it as text (CLOCK_SECOND).
 * @param {ArrayLike<number>} pixels @param {number} width @param {number} height
 * @returns {number | null}
 */
function clockSecond(pixels, width, height) {
  for (let y = 0; y < height; y += 2) {
    let runs = '';
    let kind = '.';
    let length = 0;
    for (let x = 0; x <= width; x++) {
      let now = '.';
      if (x < width) {
        const i = (y * width + x) * 4;
        const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
        if (r > 200 && g < 60 && b < 60) now = 'r';
        else if (g > 200 && r < 60 && b < 60) now = 'g';
        else if (b > 200 && r < 60 && g < 60) now = 'b';
      }
      if (now === kind) length++;
      else {
        if (kind !== '.' && length >= 8) runs += kind;
        [kind, length] = [now, 1];
      }
    }
    const bar = /g([rb]{8})g/.exec(runs);
    if (bar) return parseInt(bar[1].replaceAll('r', '1').replaceAll('b', '0'), 2);
  }
  return null;
}

/**
 * Page code (a string: callers are typed for Node, not the DOM) that seeks the console's
 * recording player to `targetMs` as its position slider does, then looks at its canvas at every
 * animation frame until the clock bar shows (at most `limitMs`). Answers { ms, second }: the time
 * from the seek to the first frame showing the bar, and the second it shows (null: never).
 * @param {number} targetMs @param {number} limitMs
 */
const SEEK_AND_READ_CLOCK = (targetMs, limitMs) => `(async () => {
  const clockSecond = ${clockSecond.toString()};
  const root = document.getElementById('recording-player');
  const range = root.querySelector('[data-action="seek"]');
  const read = () => {
    const canvas = root.querySelector('canvas');
    if (!canvas || canvas.width === 0) return null;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    return clockSecond(data, canvas.width, canvas.height);
  };
  const began = performance.now();
  range.value = String(${targetMs});
  range.dispatchEvent(new Event('input'));
  for (;;) {
    const second = read();
    const ms = performance.now() - began;
    if (second !== null || ms > ${limitMs}) return { ms, second };
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
})()`;

module.exports = { START_CLOCK, clockSecond, SEEK_AND_READ_CLOCK };
