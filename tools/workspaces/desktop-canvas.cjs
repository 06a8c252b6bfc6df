// @ts-check
// How the desktop tests and the desktops bench decide that noVNC shows a desktop: by the pixels
// of its canvas, not by its connection state (a connected stream may still draw nothing).

/**
 * Page code (a string: the callers are typed for Node, not the DOM) that counts the colours in a
 * sample of noVNC's canvas (noVNC's own page's, or the platform's session page's): 0 before it draws, 1 while it is blank. The sample is the canvas drawn
 * onto a small one without smoothing (every nth pixel, no blended colours), so that looking does
 * not hold the page's thread as reading all its pixels would (4 MB at 1280×800).
 */
const CANVAS_COLOURS = `(() => {
  const canvas = document.querySelector('#noVNC_container canvas, #screen canvas');
  if (!canvas || canvas.width === 0) return 0;
  const sample = document.createElement('canvas');
  sample.width = Math.min(canvas.width, 160);
  sample.height = Math.min(canvas.height, 100);
  const context = sample.getContext('2d', { willReadFrequently: true });
  context.imageSmoothingEnabled = false;
  context.drawImage(canvas, 0, 0, sample.width, sample.height);
  const { data } = context.getImageData(0, 0, sample.width, sample.height);
  const seen = new Set();
  for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
})()`;

/** A desktop is drawn once the canvas shows at least this many colours (more than a background). */
const DESKTOP_COLOURS = 8;

module.exports = { CANVAS_COLOURS, DESKTOP_COLOURS };
