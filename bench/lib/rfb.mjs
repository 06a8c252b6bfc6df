// @ts-check
// A minimal VNC client (RFB 3.8) over a WebSocket, as noVNC speaks it to websockify: security
// type None (the images' Xvnc runs `-SecurityTypes None -localhost`; websockify's Basic auth
// guards the WebSocket), raw encoding only, and the few requests the desktops bench makes.
import WebSocket from 'ws';

/**
 * @typedef {object} ServerInit
 * @property {number} width
 * @property {number} height
 * @property {number} bytesPerPixel
 * @property {string} name
 */

const SECURITY_NONE = 1;
const ENCODING_RAW = 0;

/** The bytes received on a WebSocket, read as a stream: exact reads, and skips without copies. */
function byteReader() {
  /** @type {Buffer[]} */
  const chunks = [];
  let length = 0;
  let offset = 0;
  /** @type {(() => void) | null} */
  let wake = null;
  /** @type {Error | null} */
  let failure = null;

  const wakeUp = () => {
    const woken = wake;
    wake = null;
    woken?.();
  };
  const waitFor = async (/** @type {number} */ n) => {
    while (length - offset < n) {
      if (failure) throw failure;
      await new Promise((resolve) => (wake = () => resolve(undefined)));
    }
  };
  const drop = () => {
    while (chunks.length > 0 && offset >= chunks[0].length) {
      offset -= chunks[0].length;
      length -= chunks[0].length;
      chunks.shift();
    }
  };
  return {
    push(/** @type {Buffer} */ chunk) {
      chunks.push(chunk);
      length += chunk.length;
      wakeUp();
    },
    fail(/** @type {Error} */ error) {
      failure = error;
      wakeUp();
    },
    /** @param {number} n @returns {Promise<Buffer>} */
    async read(n) {
      await waitFor(n);
      const out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const take = Math.min(n - filled, chunks[0].length - offset);
        chunks[0].copy(out, filled, offset, offset + take);
        filled += take;
        offset += take;
        drop();
      }
      return out;
    },
    /** Consumes n bytes as they arrive (a raw rectangle's pixels), without holding them. */
    async skip(/** @type {number} */ n) {
      let left = n;
      while (left > 0) {
        await waitFor(1);
        const step = Math.min(left, length - offset);
        offset += step;
        left -= step;
        drop();
      }
    },
  };
}

/**
 * Opens the WebSocket and completes the RFB 3.8 handshake and ClientInit (shared), then asks for
 * raw encoding only.
 * @param {string} url ws:// or wss://
 * @param {Record<string, string>} headers e.g. the grant cookie and Origin, or Basic credentials
 */
export async function connectRfb(url, headers) {
  const ws = new WebSocket(url, {
    headers,
    perMessageDeflate: false,
    rejectUnauthorized: false,
  });
  const reader = byteReader();
  let received = 0;
  ws.on('message', (/** @type {Buffer} */ data) => {
    received += data.length;
    reader.push(data);
  });
  ws.on('close', () => reader.fail(new Error(`${url}: the stream closed`)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`${url}: HTTP ${response.statusCode} instead of a WebSocket`)),
    );
  });
  ws.on('error', (error) => reader.fail(error));

  const version = (await reader.read(12)).toString('latin1');
  if (!version.startsWith('RFB 003.')) throw new Error(`not an RFB server: ${version}`);
  ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
  const count = (await reader.read(1))[0];
  if (count === 0) throw new Error('the VNC server refused the connection');
  const types = [...(await reader.read(count))];
  if (!types.includes(SECURITY_NONE))
    throw new Error(`the VNC server wants security types ${types.join(', ')}, not None`);
  ws.send(Buffer.from([SECURITY_NONE]));
  if ((await reader.read(4)).readUInt32BE(0) !== 0) throw new Error('VNC security failed');
  ws.send(Buffer.from([1]));
  const head = await reader.read(24);
  const nameLength = head.readUInt32BE(20);
  /** @type {ServerInit} */
  const init = {
    width: head.readUInt16BE(0),
    height: head.readUInt16BE(2),
    bytesPerPixel: head[4] / 8,
    name: (await reader.read(nameLength)).toString('utf8'),
  };
  const encodings = Buffer.alloc(8);
  encodings.writeUInt8(2, 0);
  encodings.writeUInt16BE(1, 2);
  encodings.writeInt32BE(ENCODING_RAW, 4);
  ws.send(encodings);

  /** Asks for the whole screen: `incremental` only once something changed. */
  const request = (/** @type {boolean} */ incremental) => {
    const message = Buffer.alloc(10);
    message.writeUInt8(3, 0);
    message.writeUInt8(incremental ? 1 : 0, 1);
    message.writeUInt16BE(init.width, 6);
    message.writeUInt16BE(init.height, 8);
    ws.send(message);
  };

  /** Reads server messages until a FramebufferUpdate has arrived whole; returns its rectangles. */
  async function nextUpdate() {
    for (;;) {
      const type = (await reader.read(1))[0];
      if (type === 0) {
        const rects = (await reader.read(3)).readUInt16BE(1);
        for (let i = 0; i < rects; i++) {
          const rect = await reader.read(12);
          const encoding = rect.readInt32BE(8);
          if (encoding !== ENCODING_RAW) throw new Error(`unexpected encoding ${encoding}`);
          await reader.skip(rect.readUInt16BE(4) * rect.readUInt16BE(6) * init.bytesPerPixel);
        }
        return rects;
      }
      if (type === 1) await reader.skip((await reader.read(5)).readUInt16BE(3) * 6);
      else if (type === 3) await reader.skip((await reader.read(7)).readUInt32BE(3));
      else if (type !== 2) throw new Error(`unexpected RFB message type ${type}`);
    }
  }

  /** Reads server messages (updates skipped) until a ServerCutText; answers its Latin-1 text. */
  async function nextCutText() {
    for (;;) {
      const type = (await reader.read(1))[0];
      if (type === 3)
        return (await reader.read((await reader.read(7)).readUInt32BE(3))).toString('latin1');
      if (type === 0) {
        const rects = (await reader.read(3)).readUInt16BE(1);
        for (let i = 0; i < rects; i++) {
          const rect = await reader.read(12);
          await reader.skip(rect.readUInt16BE(4) * rect.readUInt16BE(6) * init.bytesPerPixel);
        }
      } else if (type === 1) await reader.skip((await reader.read(5)).readUInt16BE(3) * 6);
      else if (type !== 2) throw new Error(`unexpected RFB message type ${type}`);
    }
  }

  return {
    init,
    /** Sends `text` as a ClientCutText (Latin-1: RFB's own clipboard, without extensions). */
    cutText(/** @type {string} */ text) {
      const bytes = Buffer.from(text, 'latin1');
      const head = Buffer.alloc(8);
      head.writeUInt8(6, 0);
      head.writeUInt32BE(bytes.length, 4);
      ws.send(Buffer.concat([head, bytes]));
    },
    nextCutText,
    /** Bytes received on the WebSocket so far (frames' payloads). */
    received: () => received,
    /**
     * Full, non-incremental screens back to back for `ms`: one request in flight, the next sent
     * when the previous screen has arrived.
     */
    async fullScreens(/** @type {number} */ ms) {
      const from = received;
      const started = performance.now();
      let screens = 0;
      while (performance.now() - started < ms) {
        request(false);
        await nextUpdate();
        screens += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      return { bytes: received - from, seconds, screens };
    },
    /**
     * Incremental updates for `ms`, the next asked for as soon as one arrives: a client's frames.
     * The server answers one only once something changed: a still desktop fails after 10 s.
     */
    async incrementalUpdates(/** @type {number} */ ms) {
      request(false);
      await nextUpdate();
      const started = performance.now();
      let updates = 0;
      while (performance.now() - started < ms) {
        request(true);
        /** @type {NodeJS.Timeout | undefined} */
        let timer;
        const still = new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the desktop did not change for 10 s')),
            10_000,
          );
        });
        await Promise.race([nextUpdate(), still]).finally(() => clearTimeout(timer));
        updates += 1;
      }
      return { updates, seconds: (performance.now() - started) / 1000 };
    },
    /** One WebSocket ping answered by the far end's pong, in ms. */
    ping() {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        ws.once('pong', () => resolve(performance.now() - started));
        ws.ping(undefined, undefined, (error) => error && reject(error));
      });
    },
    /** Sends client messages as they are (a program's KeyEvents, PointerEvents). */
    send: (/** @type {Buffer} */ bytes) => ws.send(bytes),
    /** Asks for the whole screen (incremental: only what changed, answered once something did). */
    request,
    nextUpdate,
    close() {
      ws.terminate();
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof connectRfb>>} RfbClient */
