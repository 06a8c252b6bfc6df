// Session recording (docs/recording.md): the policy's effect, the recorder on the service's own
// VNC connection, the file format with its digest chain, storage and retention, playback.
export { ChunkType, readChunks, verifyRecording, type Verified } from './recording-file';
export {
  createSessionRecordingFeature,
  type SessionRecordingFeature,
} from './session-recording.module';
export type { RecordingPolicy } from './session-recorder';
export { recordingsRoutes } from './recordings.routes';
export { createRecordingsService, type RecordingsService } from './recordings.service';
export type { RecordingRow } from './recordings.repository';
export { playbackFrom, screenAt } from './recording-decoder';
