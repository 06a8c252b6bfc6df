// Session recording (docs/recording.md): the policy's effect, the recorder on the service's own
// VNC connection, the file format with its digest chain, storage and retention, playback.
export { ChunkType, readChunks, type RecordingMeta } from './recording-file';
export { verifyRecording, verifyRecordingStream, type Verified } from './recording-verifier';
// The S3-compatible store's client and a stream's digest, for tools that look into the store (tests).
export { createRecordingStore, StoredObjectMissing, type RecordingStore } from './recording-store';
export { digestOf } from './recording-storage';
// What writes a recording file, for tools that make one (tests, bench).
export { openRecordingWriter } from './recording-writer';
export { keyframeUpdate, playbackHandshake } from './rfb-recording';
export {
  createSessionRecordingFeature,
  type SessionRecordingFeature,
} from './session-recording.module';
export type { RecordingPolicy } from './session-recorder';
export { recordingsRoutes } from './recordings.routes';
export { createRecordingsService, type RecordingsService } from './recordings.service';
export type { RecordingRow } from './recordings.repository';
export { playbackFrom, screenAt } from './recording-decoder';
