// A running session's desktop sound in its browser, on the sessions origin: PulseAudio's recorder
// run in the session's container through the engine (no server in the image, no extra port),
// streamed over a WebSocket under the workspace's allow_kasm_audio. The page plays it with the
// player of assets/ (window.platformSessionAudio).
export { AUDIO_PREFIX, sessionAudioRoutes } from './session-audio.routes';
export { createSessionAudioService, type SessionAudioService } from './session-audio.service';
