// A TCP proxy in front of PostgreSQL that records every statement the services execute, with its
// parameters, as they go over the wire (extended protocol: Parse names a statement, Bind runs it).
// The plan check EXPLAINs what production sends, not a copy built from the apps' sources.
import net from 'node:net';

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/**
 * A statement as executed: its text and its parameters in text form (null for SQL NULL).
 * @typedef {{ text: string, values: (string | null)[] }} Executed
 */

/**
 * Reads the client→server stream of one connection and calls `onExecute(text, values)`.
 * @param {(text: string, values: Executed['values']) => void} onExecute
 */
function frontendParser(onExecute) {
  let buffer = Buffer.alloc(0);
  let startup = true;
  /** @type {Map<string, string>} */
  const named = new Map();
  let unnamed = '';

  /**
   * A NUL-terminated string at `at`, and the offset after it.
   * @param {Buffer} message
   * @param {number} at
   * @returns {[string, number]}
   */
  const cString = (message, at) => {
    const end = message.indexOf(0, at);
    return [message.toString('utf8', at, end), end + 1];
  };

  /** @param {Buffer} message */
  function bind(message) {
    let at = cString(message, 0)[1];
    const [statement, next] = cString(message, at);
    at = next;
    const formatCount = message.readInt16BE(at);
    /** @type {number[]} */
    const formats = [];
    for (let i = 0; i < formatCount; i++) formats.push(message.readInt16BE(at + 2 + 2 * i));
    at += 2 + 2 * formatCount;
    const count = message.readInt16BE(at);
    at += 2;
    /** @type {Executed['values']} */
    const values = [];
    for (let i = 0; i < count; i++) {
      const length = message.readInt32BE(at);
      at += 4;
      const format = formats.length === 1 ? formats[0] : (formats[i] ?? 0);
      if (length < 0) values.push(null);
      else if (format === 0) values.push(message.toString('utf8', at, at + length));
      else return; // binary parameters: not something the plan check can replay
      if (length > 0) at += length;
    }
    // A statement this connection never parsed here: nothing the plan check keeps.
    onExecute(statement ? (named.get(statement) ?? '') : unnamed, values);
  }

  return (/** @type {Buffer} */ chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (startup) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        startup = code === SSL_REQUEST || code === GSS_REQUEST;
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) return;
      const type = String.fromCharCode(buffer[0]);
      const message = buffer.subarray(5, length + 1);
      buffer = buffer.subarray(length + 1);
      if (type === 'P') {
        const [name, at] = cString(message, 0);
        const [text] = cString(message, at);
        if (name) named.set(name, text);
        else unnamed = text;
      } else if (type === 'B') bind(message);
      else if (type === 'Q') onExecute(cString(message, 0)[0], []);
    }
  };
}

/**
 * Listens on a free local port and forwards to the server of `databaseUrl`. Returns the URL to
 * give the services instead, `take()` (the statements executed since the last take, in order)
 * and `close()`.
 * @param {string} databaseUrl
 */
export async function startCapture(databaseUrl) {
  const target = new URL(databaseUrl);
  /** @type {Executed[]} */
  let executed = [];
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const parse = frontendParser((text, values) => executed.push({ text, values }));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => (client.destroy(), upstream.destroy(), sockets.delete(socket)));
    }
    client.on('data', (chunk) => {
      parse(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
  });
  await /** @type {Promise<void>} */ (
    new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  );
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(/** @type {net.AddressInfo} */ (server.address()).port);
  return {
    url: url.toString(),
    take() {
      const taken = executed;
      executed = [];
      return taken;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
