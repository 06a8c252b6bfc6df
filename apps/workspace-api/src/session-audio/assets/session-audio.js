// The session page's sound: plays the desktop's sound (the session's _audio WebSocket, PCM) in
// the page through an AudioWorklet with a small buffer. Served on the sessions origin at
// /kasm/<kasm_id>/_audio/player.js; a page there loads it and calls
//   window.platformSessionAudio.start({ kasmId }) -> Promise<{ stop(), analyser, context, ... }>
// (startSessionAudio is the same function). Start it from a click: browsers let a page play sound
// only after the user acted on it. No dependencies.
'use strict';
(function (global) {
  var RATE = 48000;
  var current = null;

  function kasmIdOfPage() {
    var match = /^\/kasm\/([0-9a-fA-F-]{32,36})\//.exec(global.location.pathname);
    return match ? match[1] : null;
  }

  // Why the WebSocket was refused: its handshake hides the answer, a plain GET tells it.
  function refusal(base, channels) {
    return fetch(base + '?channels=' + channels, { credentials: 'same-origin' }).then(
      function (res) {
        if (res.ok) return { code: 'SESSION_AUDIO_CLOSED', detail: 'The sound stream closed' };
        return res
          .json()
          .catch(function () {
            return {};
          })
          .then(function (body) {
            return {
              status: res.status,
              code: body.code || 'HTTP_' + res.status,
              detail: body.detail || body.title || 'Sound is not available (' + res.status + ')',
            };
          });
      },
      function () {
        return { code: 'NETWORK', detail: 'The session could not be reached' };
      },
    );
  }

  function failure(problem) {
    var error = new Error(problem.detail);
    error.code = problem.code;
    error.status = problem.status;
    return error;
  }

  /**
   * options: kasmId (default: the page's /kasm/<id>/), channels (1 or 2, default 2), startMs
   * (sound buffered before playing, default 80), maxMs (beyond it the oldest goes, default 250),
   * onEnd(reason) when the stream ends by itself, socketUrl (another source of the same messages:
   * bench:sound's local baseline). Resolves once the first sound arrived.
   */
  function startSessionAudio(options) {
    options = options || {};
    var kasmId = options.kasmId || kasmIdOfPage();
    if (!kasmId) return Promise.reject(new Error('startSessionAudio: no kasmId'));
    var channels = options.channels === 1 ? 1 : 2;
    var base = global.location.origin + '/kasm/' + kasmId + '/_audio';
    var context = new AudioContext({ sampleRate: RATE, latencyHint: 'interactive' });
    var stats = {};
    var socket = null;
    var stopped = false;

    function stop() {
      if (stopped) return;
      stopped = true;
      if (socket) socket.close(1000);
      context.close();
      if (current && current.context === context) current = null;
    }

    return context.audioWorklet
      .addModule(base + '/worklet.js')
      .then(function () {
        var node = new AudioWorkletNode(context, 'session-audio', {
          numberOfInputs: 0,
          numberOfOutputs: 1,
          outputChannelCount: [2],
          processorOptions: { startMs: options.startMs || 80, maxMs: options.maxMs || 250 },
        });
        node.port.onmessage = function (event) {
          stats = event.data;
        };
        var analyser = context.createAnalyser();
        node.connect(analyser);
        node.connect(context.destination);
        context.resume();
        return new Promise(function (resolve, reject) {
          var opened = false;
          socket = new WebSocket(
            options.socketUrl || base.replace(/^http/, 'ws') + '?channels=' + channels,
          );
          socket.binaryType = 'arraybuffer';
          socket.onmessage = function (event) {
            if (typeof event.data === 'string') {
              node.port.postMessage({ channels: JSON.parse(event.data).channels });
              return;
            }
            node.port.postMessage(event.data, [event.data]);
            if (opened) return;
            opened = true;
            resolve({
              kasmId: kasmId,
              context: context,
              node: node,
              analyser: analyser,
              socket: socket,
              stats: function () {
                return stats;
              },
              stop: stop,
            });
          };
          socket.onclose = function (event) {
            var wasStopped = stopped;
            stop();
            if (!opened) return refusal(base, channels).then(failure).then(reject);
            if (!wasStopped && options.onEnd) options.onEnd(event.reason || 'closed');
          };
        });
      })
      .then(
        function (audio) {
          if (current) current.stop();
          current = audio;
          return audio;
        },
        function (error) {
          stop();
          throw error;
        },
      );
  }

  global.startSessionAudio = startSessionAudio;
  global.platformSessionAudio = {
    start: startSessionAudio,
    stop: function () {
      if (current) current.stop();
    },
    /** The sound playing now (what start resolved to), or null. */
    current: function () {
      return current;
    },
  };
})(window);
