import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  ChunkType,
  keyframeUpdate,
  openRecordingWriter,
  playbackHandshake,
  type RecordingMeta,
} from '../src/session-recording';
import type { Harness } from './harness';

/** A FramebufferUpdate of one Raw rectangle of one colour (red, green, blue). */
export function rawUpdate(x: number, y: number, w: number, h: number, rgb: number[]) {
  const head = Buffer.alloc(16);
  head.writeUInt16BE(1, 2);
  head.writeUInt16BE(x, 4);
  head.writeUInt16BE(y, 6);
  head.writeUInt16BE(w, 8);
  head.writeUInt16BE(h, 10);
  const pixels = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) pixels.set(rgb, i * 4);
  return Buffer.concat([head, pixels]);
}

export const SCREEN = { width: 64, height: 32 };
/** The colour the whole screen turns at each second of the synthetic recording (0 s … 5 s). */
export const COLOURS = [
  [10, 20, 30],
  [200, 0, 0],
  [0, 200, 0],
  [0, 0, 200],
  [200, 200, 0],
  [0, 200, 200],
];

/**
 * A recording written by the recorder's own writer, of a screen that turns another colour every
 * second for 6 s (COLOURS), with a keyframe at 3 s; its row as the recorder leaves it.
 */
export async function syntheticRecording(
  dir: string,
  h?: Harness,
  options: { startedAt?: Date; expiresAt?: Date | null; username?: string } = {},
) {
  const id = randomUUID();
  const kasmId = randomUUID();
  const startedAt = options.startedAt ?? new Date();
  const relative = `2027/01/03/${kasmId}-${id}.rec`;
  const meta: RecordingMeta = {
    format: 1,
    kasmId,
    userId: null,
    username: options.username ?? 'ada',
    imageId: null,
    startedAt: startedAt.toISOString(),
    ...SCREEN,
    keystrokes: false,
    signed: false,
  };
  const writer = await openRecordingWriter({
    file: path.join(dir, relative),
    key: null,
    meta,
    onError: (error) => {
      throw error;
    },
  });
  const { width, height } = SCREEN;
  writer.append({ type: ChunkType.server, at: 0, payload: playbackHandshake(width, height) });
  COLOURS.forEach((rgb, second) => {
    const at = second * 1000 + 10;
    writer.append({ type: ChunkType.server, at, payload: rawUpdate(0, 0, width, height, rgb) });
    if (second === 3) {
      const screen = Buffer.alloc(width * height * 4);
      for (let i = 0; i < width * height; i++) screen.set(rgb, i * 4);
      writer.append({
        type: ChunkType.keyframe,
        at,
        payload: keyframeUpdate({ width, height, bgrx: screen }),
      });
    }
  });
  writer.append({ type: ChunkType.end, at: 6000, payload: Buffer.from('{"reason":"ended"}') });
  const progress = await writer.close();
  await h?.db.recording.create({
    data: {
      id,
      kasmId,
      username: meta.username,
      imageName: 'Desktop',
      path: relative,
      status: 'complete',
      keystrokes: false,
      bytes: BigInt(progress.bytes),
      chunks: progress.chunks,
      digest: progress.digest,
      startedAt,
      endedAt: new Date(startedAt.getTime() + 6000),
      expiresAt: options.expiresAt ?? null,
    },
  });
  return { id, kasmId, file: path.join(dir, relative), digest: progress.digest };
}
