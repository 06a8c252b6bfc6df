import { toUuid } from '@platform/schemas';

/** A session's last input is written at most this often: the idle limit's precision. */
export const INPUT_RECORD_MS = 5000;

export interface InputRecorderOptions {
  write: (kasmId: string, at: Date) => Promise<unknown>;
  onError: (error: unknown, kasmId: string) => void;
  everyMs?: number;
}

/**
 * Notes input on a session's stream (client to container) for the idle limit: one database write
 * per session per interval however many frames arrive; the rest cost a map lookup.
 */
export function createInputRecorder(options: InputRecorderOptions) {
  const everyMs = options.everyMs ?? INPUT_RECORD_MS;
  const written = new Map<string, number>();
  return (rawKasmId: string): void => {
    const now = Date.now();
    const last = written.get(rawKasmId);
    if (last !== undefined && now - last < everyMs) return;
    written.set(rawKasmId, now);
    // Entries older than the interval are no longer needed to throttle anything.
    if (written.size > 10_000) {
      for (const [id, at] of written) if (now - at >= everyMs) written.delete(id);
    }
    options.write(toUuid(rawKasmId), new Date(now)).catch((error: unknown) => {
      written.delete(rawKasmId);
      options.onError(error, rawKasmId);
    });
  };
}
export type InputRecorder = ReturnType<typeof createInputRecorder>;
