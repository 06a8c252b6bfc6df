// The console's recording player (docs/recording.md, "Playback"): the recording file read in the
// browser and fed to noVNC's own client through a channel of ours instead of a WebSocket, at the
// recorded pace (times the speed). Seeking starts a fresh client at the last keyframe before the
// target (a whole screen) and feeds what followed it up to the target at once.
import RFB from './novnc/core/rfb.js';

const MAGIC = 'WPREC01\n';
const SERVER = 1;
const KEYFRAME = 2;

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The file's chunks, payloads inflated; the chain is checked by the service (verify_recording). */
async function parse(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 8)) !== MAGIC)
    throw new Error('not a recording file');
  let at = 12 + view.getUint32(8);
  const chunks = [];
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (end + 32 > bytes.length) break;
    const stored = bytes.subarray(at + 12, end);
    const payload = bytes[at + 5] & 1 ? await inflate(stored) : stored;
    chunks.push({ type: bytes[at + 4], at: view.getUint32(at + 8), payload });
    at = end + 32;
  }
  return chunks;
}

/** What noVNC's Websock needs of a channel: bytes arrive through onmessage, sends go nowhere. */
class RecordingChannel {
  constructor() {
    this.binaryType = 'arraybuffer';
    this.protocol = '';
    this.readyState = 'open';
    this.onopen = null;
    this.onmessage = null;
    this.onclose = null;
    this.onerror = null;
  }
  send() {}
  close() {
    this.readyState = 'closed';
  }
  push(payload) {
    this.onmessage?.({ data: payload.slice().buffer });
  }
}

/** Attempts at the file when the network fails under a load (a blip, a changed interface). */
const FETCH_ATTEMPTS = 5;

/**
 * The recording file's bytes. A load the network broke (fetch rejects with a TypeError) is tried
 * again after a growing pause, as a person would reload; an answer that is not 200 is an error.
 */
async function download(src) {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(src, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`the service answered ${response.status}`);
      return await response.arrayBuffer();
    } catch (error) {
      if (!(error instanceof TypeError) || attempt === FETCH_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

async function start(root) {
  const screen = root.querySelector('[data-role="screen"]');
  const time = root.querySelector('[data-role="time"]');
  const playButton = root.querySelector('[data-action="play"]');
  const speedSelect = root.querySelector('[data-action="speed"]');
  const seekRange = root.querySelector('[data-action="seek"]');
  const chunks = await parse(await download(root.dataset.src));
  const handshake = chunks[0];
  const duration = chunks.length ? chunks[chunks.length - 1].at : 0;
  seekRange.max = String(duration);

  let rfb = null;
  let channel = null;
  let next = 0; // the index of the next chunk to feed
  let position = 0; // ms into the recording
  let playing = false;
  let lastTick = 0;

  function fresh() {
    rfb?.disconnect();
    screen.replaceChildren();
    channel = new RecordingChannel();
    rfb = new RFB(screen, channel, { shared: true });
    rfb.viewOnly = true;
    rfb.scaleViewport = true;
    // The handshake as a server sends it, answer by answer: noVNC reads each step's reply as
    // its own message (version, security types, security result, ServerInit).
    for (const [from, to] of [
      [0, 12],
      [12, 14],
      [14, 18],
      [18, handshake.payload.length],
    ])
      channel.push(handshake.payload.subarray(from, to));
  }

  /** Feeds the server's chunks up to `target` (keyframes only when starting from one). */
  function feedTo(target) {
    while (next < chunks.length && chunks[next].at <= target) {
      if (chunks[next].type === SERVER) channel.push(chunks[next].payload);
      next++;
    }
  }

  function seek(target) {
    fresh();
    let keyframe = -1;
    chunks.forEach((chunk, i) => {
      if (chunk.type === KEYFRAME && chunk.at <= target) keyframe = i;
    });
    if (keyframe === -1) next = 1;
    else {
      channel.push(chunks[keyframe].payload);
      next = keyframe + 1;
    }
    feedTo(target);
    position = target;
    show();
  }

  function show() {
    time.value = `${clock(position)} / ${clock(duration)}`;
    seekRange.value = String(position);
    root.dataset.position = String(Math.round(position));
  }

  function tick(now) {
    if (!playing) return;
    position = Math.min(duration, position + (now - lastTick) * Number(speedSelect.value));
    lastTick = now;
    feedTo(position);
    show();
    if (position >= duration) {
      playing = false;
      playButton.textContent = 'Play';
      return;
    }
    requestAnimationFrame(tick);
  }

  playButton.addEventListener('click', () => {
    playing = !playing;
    playButton.textContent = playing ? 'Pause' : 'Play';
    if (playing) {
      if (position >= duration) seek(0);
      lastTick = performance.now();
      requestAnimationFrame(tick);
    }
  });
  seekRange.addEventListener('input', () => seek(Number(seekRange.value)));
  seek(0);
  root.dataset.ready = 'true';
}

const root = document.getElementById('recording-player');
if (root)
  start(root).catch((error) => {
    root.dataset.error = String(error);
    root.insertAdjacentHTML('afterbegin', '<p class="error" role="alert"></p>');
    root.querySelector('.error').textContent = `The recording cannot be played: ${error.message}`;
  });
