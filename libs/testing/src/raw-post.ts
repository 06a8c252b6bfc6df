import net from 'node:net';

/**
 * POSTs `body` as JSON over a connection of its own from `localAddress` (any of 127.0.0.0/8 on
 * Linux), so that a test can be many clients and can hang up mid-request (`socket.destroy()`).
 * `response` is everything the server sent, once the connection closes.
 */
export function rawJsonPost(port: number, localAddress: string, path: string, body: unknown) {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  const text = JSON.stringify(body);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
  const response = new Promise<string>((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  return { socket, response };
}
