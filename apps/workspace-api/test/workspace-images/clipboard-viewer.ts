import WebSocket from 'ws';

/**
 * A VNC viewer (RFB 3.8, security None, Raw only) that reads what the server sends: it counts
 * framebuffer updates and keeps the ServerCutText texts, and sends ClientCutText. Enough to
 * watch the clipboard pass the proxy, or not.
 */
export interface ClipboardViewer {
  /** Latin-1 texts of the ServerCutText messages received. */
  cutTexts: string[];
  updates: number;
  /** A full (not incremental) FramebufferUpdateRequest; resolves once its update arrived. */
  roundTrip: () => Promise<void>;
  sendCutText: (text: string) => void;
  /** Any client message, as it is. */
  send: (message: Buffer) => void;
  isClosed: () => boolean;
  close: () => void;
}

export async function connectClipboardViewer(
  url: string,
  headers: Record<string, string>,
  { shared = true }: { shared?: boolean } = {},
): Promise<ClipboardViewer> {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let closed = false;
  ws.on('message', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    wake?.();
  });
  ws.on('close', () => {
    closed = true;
    wake?.();
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const read = async (n: number): Promise<Buffer> => {
    while (buffered.length < n) {
      if (closed) throw new Error(`${url}: the stream closed`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
  await read(12);
  ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
  const types = [...(await read((await read(1))[0]))];
  if (!types.includes(1)) throw new Error(`security types ${types.join(', ')}, not None`);
  ws.send(Buffer.from([1]));
  if ((await read(4)).readUInt32BE(0) !== 0) throw new Error('VNC security failed');
  ws.send(Buffer.from([shared ? 1 : 0]));
  const init = await read(24);
  await read(init.readUInt32BE(20));
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  const bpp = init[4] / 8;
  const encodings = Buffer.alloc(8);
  encodings[0] = 2;
  encodings.writeUInt16BE(1, 2);
  encodings.writeInt32BE(0, 4);
  ws.send(encodings);

  let updated = null as (() => void) | null;
  const viewer: ClipboardViewer = {
    cutTexts: [],
    updates: 0,
    async roundTrip() {
      const before = viewer.updates;
      const message = Buffer.alloc(10);
      message[0] = 3;
      message.writeUInt16BE(width, 6);
      message.writeUInt16BE(height, 8);
      ws.send(message);
      while (viewer.updates === before) {
        if (closed) throw new Error(`${url}: the stream closed`);
        await new Promise<void>((resolve) => (updated = resolve));
      }
    },
    sendCutText(text) {
      const body = Buffer.from(text, 'latin1');
      const head = Buffer.alloc(8);
      head[0] = 6;
      head.writeInt32BE(body.length, 4);
      ws.send(Buffer.concat([head, body]));
    },
    send: (message) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(message);
    },
    isClosed: () => closed,
    close: () => ws.close(),
  };
  // The server's messages, read for as long as the stream is open.
  void (async () => {
    for (;;) {
      const type = (await read(1))[0];
      if (type === 0) {
        const rects = (await read(3)).readUInt16BE(1);
        for (let i = 0; i < rects; i++) {
          const rect = await read(12);
          const encoding = rect.readInt32BE(8);
          if (encoding === 0) await read(rect.readUInt16BE(4) * rect.readUInt16BE(6) * bpp);
          else if (encoding !== -223) throw new Error(`encoding ${encoding} not asked for`);
        }
        viewer.updates++;
        updated?.();
      } else if (type === 3) {
        const length = (await read(7)).readInt32BE(3);
        viewer.cutTexts.push((await read(length)).toString('latin1'));
      } else if (type === 2) continue;
      else if (type === 1) {
        const head = await read(5);
        await read(6 * head.readUInt16BE(3));
      } else throw new Error(`server message ${type}`);
    }
  })().catch(() => ws.close());
  return viewer;
}
