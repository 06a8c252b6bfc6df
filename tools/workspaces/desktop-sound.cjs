// @ts-check
// How the sound test and the sound bench play a tone in a desktop and hear it in the page: the
// tone is written and played in the container (python3 and paplay, both in every image), and the
// page reads the session player's AnalyserNode (src/session-audio/assets/session-audio.js).

/**
 * Shell (run as the desktop's user) writing `seconds` of a sine at `hz` to /tmp/tone-<hz>.wav:
 * mono, 48 kHz, at a quarter of full scale.
 * @param {number} hz @param {number} seconds
 */
const writeTone = (hz, seconds) =>
  `python3 -c 'import math, struct, wave
w = wave.open("/tmp/tone-${hz}.wav", "wb")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(48000)
w.writeframes(b"".join(struct.pack("<h", int(8192 * math.sin(2 * math.pi * ${hz} * i / 48000))) for i in range(int(48000 * ${seconds}))))'`;

/**
 * Shell playing the tone written by writeTone, printing the container's clock (ms since the
 * epoch) as it starts: the same clock as the page's on this machine.
 * @param {number} hz
 */
const playTone = (hz) => `date +%s%3N; exec paplay --latency-msec=20 /tmp/tone-${hz}.wav`;

/**
 * Page code: the loudest frequency the playing session sound holds (window.__sessionAudio, what
 * platformSessionAudio.start resolved to), from its analyser with the largest window (32768
 * frames: 1.46 Hz bins at 48 kHz) and a parabola through the peak bin and its neighbours (in dB,
 * good to a fraction of a bin), with its level and whether the tone fills the whole window
 * (sound in every eighth of it: else the peak is smeared by the tone's start, or by a gap where a
 * loaded machine let the stream run dry).
 */
const TONE_PEAK = `(() => {
  const { analyser, context } = window.__sessionAudio;
  analyser.fftSize = 32768;
  analyser.smoothingTimeConstant = 0;
  const bins = new Float32Array(analyser.frequencyBinCount);
  analyser.getFloatFrequencyData(bins);
  const hz = context.sampleRate / analyser.fftSize;
  let k = Math.round(100 / hz);
  for (let i = k; i < Math.round(8000 / hz); i++) if (bins[i] > bins[k]) k = i;
  const [a, b, c] = [bins[k - 1], bins[k], bins[k + 1]];
  const shift = (a - c) / (2 * (a - 2 * b + c)) || 0;
  const wave = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(wave);
  const eighth = wave.length / 8;
  const loud = (from) => Math.max(...wave.subarray(from, from + eighth).map(Math.abs)) > 0.05;
  const full = [0, 1, 2, 3, 4, 5, 6, 7].every((i) => loud(i * eighth));
  return { frequency: (k + shift) * hz, db: b, full };
})()`;

/**
 * Page code: resolves with the page's clock (ms since the epoch) when the session sound's level
 * first rises over a threshold, watched on every 128-frame render quantum's worth of time by a
 * small analyser of its own (the desktop is silent otherwise).
 */
const SOUND_ONSET = `new Promise((resolve) => {
  const { node, context } = window.__sessionAudio;
  const onset = context.createAnalyser();
  onset.fftSize = 256;
  node.connect(onset);
  const wave = new Float32Array(onset.fftSize);
  const timer = setInterval(() => {
    onset.getFloatTimeDomainData(wave);
    if (Math.max(...wave.map(Math.abs)) < 0.05) return;
    clearInterval(timer);
    node.disconnect(onset);
    resolve(performance.timeOrigin + performance.now());
  }, 2);
})`;

/**
 * Page code starting the session's sound (the player's platformSessionAudio.start with `options`)
 * as window.__sessionAudio; it resolves once the first sound arrived.
 * @param {Record<string, unknown>} [options]
 */
const startSound = (options = {}) =>
  `platformSessionAudio.start(${JSON.stringify(options)}).then((audio) => { window.__sessionAudio = audio; })`;

/** Page code stopping the session's sound. */
const STOP_SOUND = 'platformSessionAudio.stop()';

module.exports = { SOUND_ONSET, STOP_SOUND, TONE_PEAK, playTone, startSound, writeTone };
