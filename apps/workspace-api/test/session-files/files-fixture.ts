import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import { toUuid } from '@platform/schemas';
import { docker, type SessionWorld } from '../engine/session-fixture';

/** Runs `cmd` in the container (as root, or `user`) and answers its stdout and stderr. */
export async function inContainer(
  containerId: string,
  cmd: string,
  user?: string,
): Promise<string> {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: ['/bin/sh', '-c', cmd],
    User: user,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  docker.modem.demuxStream(stream, out, out);
  await new Promise((resolve) => stream.on('end', resolve));
  return text;
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A running session of `userId` on `imageId`, its grant cookie and its container. */
export async function openSession(
  w: SessionWorld,
  base: string,
  userId: string,
  imageId = w.imageId,
) {
  const { kasm_id: kasmId } = await w.request({ user_id: userId, image_id: imageId });
  await w.waitForStatus(toUuid(kasmId), 'running');
  const status = await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId });
  const link = new URL(status.json().kasm_url);
  const res = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  const [container] = await w.containersOf(kasmId);
  return { kasmId, cookie, containerId: container.Id };
}

export type Session = Awaited<ReturnType<typeof openSession>>;

/** A client of a session's files endpoints, with its grant cookie. */
export function filesClient(base: string, session: Pick<Session, 'kasmId' | 'cookie'>) {
  const root = `${base}/kasm/${session.kasmId}/_files`;
  const headers = { cookie: session.cookie };
  const json = { ...headers, 'content-type': 'application/json' };
  return {
    root,
    policy: () => fetch(`${root}/policy`, { headers }),
    start: (name: string, size: number) =>
      fetch(`${root}/uploads`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name, size }),
      }),
    status: (id: string) => fetch(`${root}/uploads/${id}`, { headers }),
    patch: (id: string, offset: number, body: Buffer | ReadableStream<Uint8Array>) =>
      fetch(`${root}/uploads/${id}`, {
        method: 'PATCH',
        headers: {
          ...headers,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        body,
        duplex: 'half',
      } as RequestInit),
    cancel: (id: string) => fetch(`${root}/uploads/${id}`, { method: 'DELETE', headers }),
    list: () => fetch(`${root}/downloads`, { headers }),
    download: (name: string) => fetch(`${root}/downloads/${encodeURIComponent(name)}`, { headers }),
    /** Uploads `data` as `name` in one PATCH; answers the final response. */
    async upload(name: string, data: Buffer) {
      const started = await this.start(name, data.length);
      expect(started.status).toBe(201);
      const { upload_id: id } = (await started.json()) as { upload_id: string };
      return this.patch(id, 0, data);
    },
    /**
     * Sends the headers of a PATCH of all of `total`, writes `sent` bytes of it, waits for
     * `arrived` (the part holds them) and cuts the connection: a network failure half-way.
     */
    async cutPatch(id: string, total: Buffer, sent: number, arrived: () => Promise<unknown>) {
      const req = httpRequest(new URL(`${root}/uploads/${id}`), {
        method: 'PATCH',
        headers: {
          ...headers,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': '0',
          'content-length': String(total.length),
        },
      });
      const closed = new Promise((resolve) => req.on('close', resolve));
      req.on('error', () => undefined);
      req.write(total.subarray(0, sent));
      await arrived();
      req.destroy();
      await closed;
    },
  };
}
