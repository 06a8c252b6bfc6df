import type WebSocket from 'ws';
import { type Framebuffer, startRfbClient } from '../session-driver';
import { byteReader, type DisplayStream } from '../sessions';
import { type Chunk, ChunkType, readChunks, readHeader } from './recording-file';
import { pixelFormatRgbx } from './rfb-recording';

/**
 * Where playing to `atMs` starts: the last keyframe at or before it (or the start), and the
 * server chunks after it up to `atMs`. The console's player seeks the same way.
 */
export function playbackFrom(chunks: readonly Chunk[], atMs: number): Chunk[] {
  let start = -1;
  chunks.forEach((chunk, i) => {
    if (chunk.type === ChunkType.keyframe && chunk.at <= atMs) start = i;
  });
  const after = chunks
    .slice(start + 1)
    .filter((chunk) => chunk.type === ChunkType.server && chunk.at <= atMs);
  // Without a keyframe: all the server sent after the handshake (the first chunk).
  return start === -1 ? after.slice(1) : [chunks[start], ...after];
}

/**
 * The screen a recording shows at `atMs` (red, green, blue, unused per pixel), decoded by the
 * session driver's own RFB reader fed from the file instead of a display's stream.
 */
export async function screenAt(file: Buffer, atMs: number): Promise<Framebuffer> {
  const { meta } = readHeader(file);
  const reader = byteReader();
  const ws = { send: (_: Buffer, done?: () => void) => done?.(), terminate: () => undefined };
  const display: DisplayStream = {
    hop: 'socket',
    ws: ws as unknown as WebSocket,
    reader,
    width: meta.width,
    height: meta.height,
    close: () => undefined,
  };
  let client!: ReturnType<typeof startRfbClient>;
  const ended = new Promise<void>((resolve) => {
    client = startRfbClient(display, () => resolve(), { pixelFormat: pixelFormatRgbx() });
  });
  for (const chunk of playbackFrom([...readChunks(file)], atMs)) reader.push(chunk.payload);
  reader.fail(new Error('the recording ends here'));
  await ended;
  return client.screen;
}
