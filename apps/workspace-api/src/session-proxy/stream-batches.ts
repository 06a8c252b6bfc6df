import type { Duplex } from 'node:stream';

// A batch leaves once it holds this much, or once a turn of the event loop brought nothing more.
const BATCH_BYTES = 64 * 1024;
// How much may wait for a slow browser before the container is read no further.
const BACKLOG_BYTES = 1024 * 1024;

/**
 * Copies the container's side of a stream to the browser in batches of up to 64 KB. Node hands
 * on a TLS socket's data one record (16 KB at most) per read, and queued ticks run after each,
 * so a pipe (or a cork undone on the next tick) made a loopback send, which wakes the reader,
 * of every record: four times a plain socket's writes. The batch is held only while more is
 * arriving: a turn of the loop without new data sends what is held, so a lone update waits
 * one turn, not a timer. `rewrite`, when given, says what to send for each chunk (the
 * clipboard guard's frames).
 */
export function forwardInBatches(
  from: Duplex,
  to: Duplex,
  rewrite?: (chunk: Buffer) => Buffer[],
): void {
  let held = 0;
  let arrived = false;
  let watching = false;
  const send = () => {
    if (held === 0) return;
    held = 0;
    to.uncork();
  };
  const watch = () => {
    if (arrived) {
      arrived = false;
      setImmediate(watch);
      return;
    }
    watching = false;
    send();
  };
  from.on('data', (chunk: Buffer) => {
    if (held === 0) to.cork();
    held += chunk.length;
    arrived = true;
    if (rewrite) for (const bytes of rewrite(chunk)) to.write(bytes);
    else to.write(chunk);
    if (held >= BATCH_BYTES) send();
    if (!watching) {
      watching = true;
      setImmediate(watch);
    }
    if (to.writableLength > BACKLOG_BYTES && !from.isPaused()) {
      from.pause();
      to.once('drain', () => from.resume());
    }
  });
  from.once('end', () => {
    send();
    to.end();
  });
}
