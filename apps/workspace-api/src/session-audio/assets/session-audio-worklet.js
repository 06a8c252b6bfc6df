// The session sound's AudioWorklet: a ring buffer of the PCM the player posts (s16le, mono or
// stereo), played once START_MS of it waited, and cut back to START_MS whenever more than MAX_MS
// piled up (a stall, then a burst), so that what is heard stays close to what the desktop plays.
// An empty buffer plays silence and waits for START_MS again. No dependencies.
'use strict';

class SessionAudioProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    var o = (options && options.processorOptions) || {};
    this.startFrames = Math.round(((o.startMs || 80) * sampleRate) / 1000);
    this.maxFrames = Math.round(((o.maxMs || 250) * sampleRate) / 1000);
    this.size = sampleRate * 2;
    this.left = new Float32Array(this.size);
    this.right = new Float32Array(this.size);
    this.read = 0;
    this.write = 0;
    this.buffered = 0;
    this.playing = false;
    this.channels = 2;
    this.stats = { received: 0, dropped: 0, underruns: 0 };
    this.sinceReport = 0;
    this.port.onmessage = (event) => this.receive(event.data);
  }

  receive(data) {
    if (data && data.channels) {
      this.channels = data.channels;
      return;
    }
    var samples = new Int16Array(data);
    var frames = Math.floor(samples.length / this.channels);
    for (var i = 0; i < frames; i++) {
      var l = samples[i * this.channels] / 32768;
      this.left[this.write] = l;
      this.right[this.write] = this.channels === 2 ? samples[i * 2 + 1] / 32768 : l;
      this.write = (this.write + 1) % this.size;
    }
    this.buffered += frames;
    this.stats.received += frames;
    if (this.buffered > this.maxFrames) this.skip(this.buffered - this.startFrames);
    if (this.buffered > this.size) this.skip(this.buffered - this.size);
  }

  skip(frames) {
    this.read = (this.read + frames) % this.size;
    this.buffered -= frames;
    this.stats.dropped += frames;
  }

  process(_inputs, outputs) {
    var out = outputs[0];
    var n = out[0].length;
    if (!this.playing && this.buffered >= this.startFrames) this.playing = true;
    for (var i = 0; i < n; i++) {
      var playing = this.playing && this.buffered > 0;
      if (this.playing && !playing) {
        this.playing = false;
        this.stats.underruns++;
      }
      out[0][i] = playing ? this.left[this.read] : 0;
      if (out[1]) out[1][i] = playing ? this.right[this.read] : 0;
      if (playing) {
        this.read = (this.read + 1) % this.size;
        this.buffered--;
      }
    }
    this.sinceReport += n;
    if (this.sinceReport >= sampleRate / 4) {
      this.sinceReport = 0;
      this.port.postMessage({
        bufferedMs: (this.buffered * 1000) / sampleRate,
        received: this.stats.received,
        dropped: this.stats.dropped,
        underruns: this.stats.underruns,
      });
    }
    return true;
  }
}

registerProcessor('session-audio', SessionAudioProcessor);
