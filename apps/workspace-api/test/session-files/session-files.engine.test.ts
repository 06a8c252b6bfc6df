import { randomBytes } from 'node:crypto';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from '../engine/session-fixture';
import { filesClient, inContainer, openSession, sha256, type Session } from './files-fixture';

jest.setTimeout(4 * LONG);

let w: SessionWorld;
let base: string;
let owner: { user_id: string; username: string };
let s: Session;
let files: ReturnType<typeof filesClient>;

beforeAll(async () => {
  w = await createSessionWorld();
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
  owner = await w.member('owner');
  s = await openSession(w, base, owner.user_id);
  files = filesClient(base, s);
});
afterAll(() => closeWorld(w));

const run = (cmd: string) => inContainer(s.containerId, cmd);
const problem = async (res: Response) => ((await res.json()) as { code: string }).code;
/** The fields the files endpoints answer with, as the tests read them. */
interface Answer {
  upload_id: string;
  file: { name: string; sha256: string };
  files: unknown[];
}
const answer = async (res: Response | Promise<Response>) => (await (await res).json()) as Answer;

describe('uploads into ~/Uploads', () => {
  it('puts the bytes in ~/Uploads, equal by sha256 in the container, and audits name, size and digest', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const res = await files.upload('report ü.bin', data);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      offset: data.length,
      size: data.length,
      done: true,
      file: { name: 'report ü.bin', size: data.length, sha256: sha256(data) },
    });
    expect(await run('sha256sum "$HOME/Uploads/report ü.bin"')).toContain(sha256(data));
    expect(await run('ls -A "$HOME/Uploads/.partial"')).toBe('');
    const event = await w.h.db.auditEvent.findFirstOrThrow({ where: { operation: 'upload_file' } });
    expect(event).toMatchObject({
      channel: 'session',
      actorKind: 'user',
      actorName: 'owner',
      targetId: s.kasmId,
      after: { name: 'report ü.bin', size: data.length, sha256: sha256(data) },
    });
  });

  it('gives a taken name " (1)" instead of replacing the file', async () => {
    await files.upload('twice.txt', Buffer.from('first'));
    const second = await answer(files.upload('twice.txt', Buffer.from('second')));
    expect(second.file.name).toBe('twice (1).txt');
    expect(await run('cat "$HOME/Uploads/twice.txt"')).toBe('first');
  });

  it('resumes an upload cut half-way from where it stopped, and ends with an equal sha256', async () => {
    const data = randomBytes(8 * 1024 * 1024);
    const started = await answer(files.start('resumed.bin', data.length));
    const id = started.upload_id as string;
    const half = data.length / 2;
    const part = `"$HOME/Uploads/.partial/${id}"`;
    await files.cutPatch(id, data, half, () =>
      waitFor(async () => {
        const size = Number(await run(`wc -c < ${part}`));
        if (size < half) throw new Error(`part holds ${size} bytes`);
      }, LONG),
    );
    const status = await (await files.status(id)).json();
    expect(status).toMatchObject({ name: 'resumed.bin', size: data.length, offset: half });
    expect(await run('ls "$HOME/Uploads"')).not.toContain('resumed.bin');

    const wrongOffset = await files.patch(id, 0, data);
    expect(wrongOffset.status).toBe(409);
    const rest = await files.patch(id, half, data.subarray(half));
    expect(rest.status).toBe(200);
    expect((await answer(rest)).file.sha256).toBe(sha256(data));
    expect(await run('sha256sum "$HOME/Uploads/resumed.bin"')).toContain(sha256(data));
  });

  it('removes an abandoned upload’s part on DELETE', async () => {
    const id = (await answer(files.start('dropped.bin', 10))).upload_id;
    expect((await files.cancel(id)).status).toBe(204);
    expect((await files.status(id)).status).toBe(404);
  });
});

describe('downloads from ~/Downloads', () => {
  const data = randomBytes(2 * 1024 * 1024 + 5);

  beforeAll(async () => {
    await run('mkdir -p "$HOME/Downloads/a folder" && echo secret > /outside.txt');
    await files.upload('for-download.bin', data);
    await run('mv "$HOME/Uploads/for-download.bin" "$HOME/Downloads/out ü.bin"');
    await run('ln -s /outside.txt "$HOME/Downloads/link.txt"');
  });

  it('lists the regular files (name, size, mtime), leaving out folders and links', async () => {
    const res = await files.list();
    expect(res.status).toBe(200);
    const listed = (await answer(res)).files;
    expect(listed).toEqual([{ name: 'out ü.bin', size: data.length, mtime: expect.any(Number) }]);
  });

  it('streams a file out equal to the one in the desktop, as an attachment', async () => {
    const res = await files.download('out ü.bin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="out _.bin"; filename*=UTF-8''out%20%C3%BC.bin`,
    );
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(data));
    await waitFor(
      () => w.h.db.auditEvent.findFirstOrThrow({ where: { operation: 'download_file' } }),
      LONG,
    );
  });

  it('refuses a link (422) and a folder (422), never reading where they lead', async () => {
    const link = await files.download('link.txt');
    expect([link.status, await problem(link)]).toEqual([422, 'FILE_NOT_REGULAR']);
    const folder = await files.download('a folder');
    expect([folder.status, await problem(folder)]).toEqual([422, 'FILE_NOT_REGULAR']);
    expect((await files.download('missing.bin')).status).toBe(404);
  });

  it('refuses names that are paths or hold control characters (400)', async () => {
    // `..` itself never reaches the service through a URL: clients resolve it (file-names.test.ts).
    for (const name of ['../../outside.txt', '/outside.txt', 'a\nb', 'a\u0000b']) {
      const res = await files.download(name);
      expect([name, res.status]).toEqual([name, 400]);
    }
  });
});

describe('bad input and refusals', () => {
  it('refuses upload names with .., slashes or control characters (400), writing nothing', async () => {
    for (const name of ['..', '../escape.txt', 'a/b', 'bell\u0007', '.partial']) {
      const res = await files.start(name, 1);
      expect([name, res.status, await problem(res)]).toEqual([name, 400, 'FILE_NAME_INVALID']);
    }
    expect(await run('ls "$HOME"')).not.toContain('escape.txt');
  });

  it('never writes through a link planted at the name: the upload gets a free name', async () => {
    await run('echo original > /target.txt && ln -s /target.txt "$HOME/Uploads/planted.txt"');
    const res = await answer(files.upload('planted.txt', Buffer.from('payload')));
    expect(res.file.name).toBe('planted (1).txt');
    expect(await run('cat /target.txt')).toBe('original\n');
  });

  it('refuses uploads (409) while ~/Uploads/.partial is a link, writing nothing where it leads', async () => {
    await run(
      'mkdir -p /elsewhere && mv "$HOME/Uploads/.partial" /tmp/partial-kept && ln -s /elsewhere "$HOME/Uploads/.partial"',
    );
    try {
      const res = await files.start('x.txt', 1);
      expect([res.status, await problem(res)]).toEqual([409, 'FILE_FOLDER_UNSAFE']);
      expect(await run('ls -A /elsewhere')).toBe('');
    } finally {
      await run('rm "$HOME/Uploads/.partial" && mv /tmp/partial-kept "$HOME/Uploads/.partial"');
    }
  });

  it('refuses an upload over the workspace’s limit (413) and uploads it disallows (403)', async () => {
    const image = { id: toUuid(w.imageId) };
    await w.h.db.image.update({ where: image, data: { maxUploadBytes: 1000n } });
    try {
      const over = await files.start('big.bin', 1001);
      expect([over.status, await problem(over)]).toEqual([413, 'FILE_TOO_LARGE']);
      expect((await files.start('fits.bin', 1000)).status).toBe(201);
      const policy = await (await files.policy()).json();
      expect(policy).toEqual({
        allow_uploads: true,
        allow_downloads: true,
        max_upload_bytes: 1000,
        allow_clipboard_up: true,
        allow_clipboard_down: true,
        max_clipboard_bytes: null,
      });
      await w.h.db.image.update({
        where: image,
        data: { allowUploads: false, allowDownloads: false },
      });
      expect((await files.start('any.bin', 1)).status).toBe(403);
      expect((await files.list()).status).toBe(403);
      const refused = await w.h.db.auditEvent.findMany({
        where: { channel: 'session', result: 'denied', targetId: s.kasmId },
        orderBy: { createdAt: 'asc' },
      });
      expect(refused.map((e) => [e.operation, e.status, e.errorCode, e.after])).toEqual([
        ['upload_file', 413, 'FILE_TOO_LARGE', { size: 1001 }],
        ['upload_file', 403, 'FILE_TRANSFER_REFUSED', { upload_id: null }],
        ['download_file', 403, 'FILE_TRANSFER_REFUSED', { name: null }],
      ]);
    } finally {
      await w.h.db.image.update({
        where: image,
        data: { maxUploadBytes: null, allowUploads: true, allowDownloads: true },
      });
    }
  });

  it('refuses what one of the user’s groups refuses, though the workspace allows it', async () => {
    const group = { id: toUuid(w.groupId) };
    await w.h.db.group.update({ where: group, data: { allowDownloads: false } });
    try {
      expect((await files.list()).status).toBe(403);
      expect((await files.start('fine.bin', 1)).status).toBe(201);
      expect(await (await files.policy()).json()).toMatchObject({
        allow_uploads: true,
        allow_downloads: false,
      });
    } finally {
      await w.h.db.group.update({ where: group, data: { allowDownloads: true } });
    }
  });

  it('refuses a body longer than the upload’s size (413) without writing past it', async () => {
    const id = (await answer(files.start('short.bin', 4))).upload_id;
    const res = await files.patch(id, 0, Buffer.from('12345678'));
    expect(res.status).toBe(413);
    expect(await run('ls "$HOME/Uploads"')).not.toContain('short.bin');
  });

  it('refuses a body that runs past the size after filling it (413), not putting the file in place', async () => {
    const id = (await answer(files.start('filled.bin', 4))).upload_id;
    // Two chunks apart: the first holds the whole size, the second runs past it.
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(Buffer.from('1234'));
        await new Promise((resolve) => setTimeout(resolve, 300));
        controller.enqueue(Buffer.from('5678'));
        controller.close();
      },
    });
    const res = await files.patch(id, 0, body);
    expect(res.status).toBe(413);
    expect(await run('ls "$HOME/Uploads"')).not.toContain('filled.bin');
  });

  it('answers 401 without the grant, 403 for another user’s session and 404 once it ended', async () => {
    expect((await fetch(`${files.root}/downloads`)).status).toBe(401);
    const other = await w.member('other');
    const theirs = await openSession(w, base, other.user_id);
    const crossed = filesClient(base, { kasmId: s.kasmId, cookie: theirs.cookie });
    expect((await crossed.list()).status).toBe(403);
    expect((await crossed.start('x.txt', 1)).status).toBe(403);
    const destroyed = await w.h.call('destroy_kasm', {
      kasm_id: theirs.kasmId,
      user_id: other.user_id,
    });
    expect(destroyed.statusCode).toBe(200);
    await w.waitForStatus(toUuid(theirs.kasmId), 'destroyed');
    const ended = filesClient(base, theirs);
    expect((await ended.list()).status).toBe(404);
    expect((await ended.start('x.txt', 1)).status).toBe(404);
  });
});
