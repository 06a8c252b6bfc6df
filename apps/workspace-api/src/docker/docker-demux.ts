import { Readable, type Duplex } from 'node:stream';

const HEADER_BYTES = 8;
const STDOUT = 1;
const STDERR = 2;
const STDERR_LIMIT = 1024;

/**
 * The stdout of an exec's multiplexed connection (frames: a type byte, three zero bytes, the
 * payload's length, the payload) as a Readable that reads the connection only as fast as it is
 * read itself, so that memory stays flat whatever its reader's pace. Payloads go on as slices of
 * what the connection read, never copied (docker-modem's demuxStream copies the rest of its
 * buffer at every frame and ignores backpressure). The first KiB of stderr is kept for the log.
 * Destroying `stdout` destroys the connection.
 */
export function demultiplexed(connection: Duplex) {
  let header: Buffer = Buffer.alloc(0);
  let type = 0;
  let left = 0;
  let errors = '';
  let ended = false;
  const stdout = new Readable({
    read: () => connection.resume(),
    destroy: (error, done) => {
      connection.destroy();
      done(error);
    },
  });
  const end = () => {
    if (ended) return;
    ended = true;
    stdout.push(null);
  };

  connection.on('data', (chunk: Buffer) => {
    let at = 0;
    let more = true;
    while (at < chunk.length) {
      if (left === 0) {
        const taken = Math.min(HEADER_BYTES - header.length, chunk.length - at);
        header =
          header.length === 0 && taken === HEADER_BYTES
            ? chunk.subarray(at, at + HEADER_BYTES)
            : Buffer.concat([header, chunk.subarray(at, at + taken)]);
        at += taken;
        if (header.length < HEADER_BYTES) break;
        type = header[0];
        left = header.readUInt32BE(4);
        header = Buffer.alloc(0);
        continue;
      }
      const payload = chunk.subarray(at, at + Math.min(left, chunk.length - at));
      at += payload.length;
      left -= payload.length;
      if (type === STDOUT && !ended) more = stdout.push(payload) && more;
      else if (type === STDERR && errors.length < STDERR_LIMIT) errors += payload.toString('utf8');
    }
    if (!more) connection.pause();
  });
  connection.once('end', end);
  connection.once('close', end);
  connection.once('error', (error) => stdout.destroy(error));
  return { stdout, stderr: () => errors.slice(0, STDERR_LIMIT) };
}
