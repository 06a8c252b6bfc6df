import WebSocket from 'ws';

/**
 * A minimal VNC viewer (RFB 3.8, security None) over a WebSocket, as noVNC speaks it: it
 * completes the handshake and then sends what the test asks for, a viewer's screen update
 * requests or a person's pointer moves. What the server answers after ServerInit is not read.
 */
export interface RfbViewer {
  width: number;
  height: number;
  /** An incremental FramebufferUpdateRequest for the whole screen: what an open tab sends. */
  requestUpdate: () => void;
  /** A PointerEvent: what a person moving the mouse sends. */
  movePointer: (x: number, y: number) => void;
  /** A PointerEvent with the buttons held (mask: 1 the left one). */
  pointer: (x: number, y: number, buttons: number) => void;
  /** A KeyEvent: the key (X keysym) pressed or let go. */
  key: (keysym: number, down: boolean) => void;
  close: () => void;
}

export async function connectViewer(
  url: string,
  headers: Record<string, string>,
): Promise<RfbViewer> {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let closed = false;
  // After ServerInit the answers are screen updates nobody reads: dropped as they come.
  let handshaking = true;
  ws.on('message', (data: Buffer) => {
    if (!handshaking) return;
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
      if (closed) throw new Error(`${url}: the stream closed during the handshake`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };

  const version = (await read(12)).toString('latin1');
  if (!version.startsWith('RFB 003.')) throw new Error(`not an RFB server: ${version}`);
  ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
  const types = [...(await read((await read(1))[0]))];
  if (!types.includes(1)) throw new Error(`security types ${types.join(', ')}, not None`);
  ws.send(Buffer.from([1]));
  if ((await read(4)).readUInt32BE(0) !== 0) throw new Error('VNC security failed');
  ws.send(Buffer.from([1])); // ClientInit: shared
  const init = await read(24);
  await read(init.readUInt32BE(20)); // the desktop's name
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  handshaking = false;
  buffered = Buffer.alloc(0);
  const encodings = Buffer.alloc(8);
  encodings[0] = 2;
  encodings.writeUInt16BE(1, 2);
  encodings.writeInt32BE(0, 4); // raw
  ws.send(encodings);

  const pointer = (x: number, y: number, buttons: number) => {
    const message = Buffer.alloc(6);
    message[0] = 5;
    message[1] = buttons;
    message.writeUInt16BE(x, 2);
    message.writeUInt16BE(y, 4);
    if (ws.readyState === WebSocket.OPEN) ws.send(message);
  };
  return {
    width,
    height,
    requestUpdate() {
      const message = Buffer.alloc(10);
      message[0] = 3;
      message[1] = 1;
      message.writeUInt16BE(width, 6);
      message.writeUInt16BE(height, 8);
      if (ws.readyState === WebSocket.OPEN) ws.send(message);
    },
    movePointer: (x, y) => pointer(x, y, 0),
    pointer,
    key(keysym, down) {
      const message = Buffer.alloc(8);
      message[0] = 4;
      message[1] = down ? 1 : 0;
      message.writeUInt32BE(keysym, 4);
      if (ws.readyState === WebSocket.OPEN) ws.send(message);
    },
    close: () => ws.close(),
  };
}
