import net from 'node:net';

/** Whether something answers at the Redis URL's host and port (tests that need Redis skip otherwise). */
export function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.setTimeout(500, () => socket.destroy());
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}
