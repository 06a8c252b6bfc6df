import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { closeWorld, createSessionWorld, docker, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(3 * LONG);

let w: SessionWorld;
beforeAll(async () => {
  w = await createSessionWorld();
});
afterAll(() => closeWorld(w));

const exec = async (kasm_id: string, user_id: string, cmd: string) => {
  const res = await w.h.call('exec_command_kasm', { kasm_id, user_id, exec_config: { cmd } });
  expect(res.statusCode).toBe(200);
  return res.json() as { exit_code: number; output: string };
};

async function launch(userId: string, body: Record<string, unknown> = {}) {
  const requested = await w.request({ user_id: userId, ...body });
  await w.waitForStatus(toUuid(requested.kasm_id), 'running');
  return requested;
}

describe('a launched session', () => {
  it('runs the plan: cgroup limits, file mappings with their mode, KASM_URL, the go command and the profile as home', async () => {
    const user = await w.member('ada');
    await w.h.call('create_file_mapping', {
      target_file_mapping: {
        image_id: w.imageId,
        name: 'hello',
        destination: '/usr/local/bin/hello',
        executable: true,
        content: '#!/bin/sh\necho hello from the mapping\n',
      },
    });
    await w.h.call('create_file_mapping', {
      target_file_mapping: {
        user_id: user.user_id,
        name: 'notes',
        destination: '/etc/notes.txt',
        content: 'private notes',
      },
    });
    await w.h.db.image.update({
      where: { id: toUuid(w.imageId) },
      data: { execConfig: { go: { cmd: 'echo "went to $KASM_URL" > /tmp/go-ran' } } },
    });
    const { kasm_id, kasm_url } = await launch(user.user_id, { environment: { GREETING: 'hi' } });

    const limits = await exec(
      kasm_id,
      user.user_id,
      'cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us 2>/dev/null || cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/cpu.max',
    );
    const numbers = limits.output.trim().split(/\s+/).map(Number);
    expect(numbers[0]).toBe(256 * 1024 ** 2);
    expect(numbers[1] / numbers[2]).toBeCloseTo(0.5);

    const mapped = await exec(
      kasm_id,
      user.user_id,
      'stat -c %a /usr/local/bin/hello /etc/notes.txt; hello; cat /etc/notes.txt',
    );
    expect(mapped.output).toBe('755\n644\nhello from the mapping\nprivate notes');

    const go = await exec(
      kasm_id,
      user.user_id,
      'cat /tmp/go-ran; echo "$GREETING"; echo "$KASM_URL"',
    );
    const sessionUrl = kasm_url.split('?')[0];
    expect(sessionUrl).toBe(`http://localhost/kasm/${kasm_id}/`);
    expect(go.output).toBe(`went to ${sessionUrl}\nhi\n${sessionUrl}\n`);

    await exec(kasm_id, user.user_id, 'echo kept > /home/kasm-user/keep.txt');
    expect(readFileSync(path.join(w.profiles, 'ada', 'keep.txt'), 'utf8')).toBe('kept\n');
  });
});

describe('request_kasm without image_id', () => {
  it("launches the user's default workspace", async () => {
    const user = await w.member('defaulted');
    await w.h.call('update_user_attributes', {
      target_user_attributes: { user_id: user.user_id, default_image: w.imageId },
    });
    const res = await w.h.call('request_kasm', { user_id: user.user_id });
    expect(res.statusCode).toBe(200);
    const row = await w.waitForStatus(toUuid(res.json().kasm_id), 'running');
    expect(row.imageId).toBe(toUuid(w.imageId));
  });
});

describe('exec_command_kasm', () => {
  it('answers the exit code and output, stderr included', async () => {
    const user = await w.member('exec-user');
    const { kasm_id } = await launch(user.user_id);
    const result = await exec(kasm_id, user.user_id, 'echo out; echo err >&2; exit 3');
    expect(result.exit_code).toBe(3);
    expect(result.output.split('\n').sort()).toEqual(['', 'err', 'out']);
  });

  it('answers the session as get_kasm_status gives it, and the current time, as Kasm does', async () => {
    const user = await w.member('exec-kasm');
    const { kasm_id } = await launch(user.user_id);
    const res = await w.h.call('exec_command_kasm', {
      kasm_id,
      user_id: user.user_id,
      exec_config: { cmd: 'echo hi' },
    });
    expect(res.statusCode).toBe(200);
    const status = (await w.h.call('get_kasm_status', { kasm_id })).json();
    expect(res.json()).toEqual({
      kasm: status.kasm,
      kasm_id,
      exit_code: 0,
      output: 'hi\n',
      current_time: expect.any(String),
    });
    expect(res.json().kasm).toMatchObject({ kasm_id, operational_status: 'running' });
  });
});

describe('request_kasm', () => {
  it('answers share_id null: sessions are not shared here', async () => {
    const user = await w.member('sharer');
    const res = await w.h.call('request_kasm', {
      user_id: user.user_id,
      image_id: w.imageId,
      enable_sharing: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('share_id', null);
    await w.waitForStatus(toUuid(res.json().kasm_id), 'running');
  });
});

describe('destroy_kasm', () => {
  it('removes the container and keeps the profile for the next session', async () => {
    const user = await w.member('bea');
    const first = await launch(user.user_id);
    await exec(
      first.kasm_id,
      user.user_id,
      'echo "from the first session" > /home/kasm-user/diary.txt',
    );
    expect(await w.containersOf(first.kasm_id)).toHaveLength(1);

    const destroyed = await w.h.call('destroy_kasm', {
      kasm_id: first.kasm_id,
      user_id: user.user_id,
    });
    expect(destroyed.statusCode).toBe(200);
    expect(await w.containersOf(first.kasm_id)).toHaveLength(0);
    expect(existsSync(path.join(w.profiles, 'bea', 'diary.txt'))).toBe(true);
    const status = await w.h.call('get_kasm_status', { kasm_id: first.kasm_id });
    expect(status.statusCode).toBe(404);
    expect(status.json()).toMatchObject({ code: 'KASM_NOT_FOUND' });

    const second = await launch(user.user_id);
    const read = await exec(second.kasm_id, user.user_id, 'cat /home/kasm-user/diary.txt');
    expect(read.output).toBe('from the first session\n');
  });

  it('answers 404 for another user’s session', async () => {
    const owner = await w.member('owner');
    const other = await w.member('other');
    const { kasm_id } = await launch(owner.user_id);
    const res = await w.h.call('destroy_kasm', { kasm_id, user_id: other.user_id });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('KASM_NOT_FOUND');
    expect(await w.containersOf(kasm_id)).toHaveLength(1);
  });
});

describe('session listing', () => {
  it('lists live sessions in get_kasms, get_kasm_status and get_user', async () => {
    const user = await w.member('lister');
    const { kasm_id } = await launch(user.user_id);
    const all = (await w.h.call('get_kasms')).json();
    expect(all.kasms.map((k: { kasm_id: string }) => k.kasm_id)).toContain(kasm_id);
    const status = (await w.h.call('get_kasm_status', { kasm_id, user_id: user.user_id })).json();
    expect(status).toMatchObject({
      kasm_id,
      operational_status: 'running',
      kasm: { kasm_id, username: 'lister', image: { image_id: w.imageId }, hostname: 'engine-1' },
    });
    expect(status.kasm_url).toMatch(new RegExp(`/kasm/${kasm_id}/\\?kasm_token=`));
    const got = (await w.h.call('get_user', { target_user: { user_id: user.user_id } })).json();
    expect(got.user.kasms.map((k: { kasm_id: string }) => k.kasm_id)).toEqual([kasm_id]);
  });
});

describe('delete_user', () => {
  it('refuses a user with a live session with 409, and with force destroys the session first', async () => {
    const user = await w.member('leaver');
    const { kasm_id } = await launch(user.user_id);
    const refused = await w.h.call('delete_user', { target_user: { user_id: user.user_id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('USER_HAS_SESSIONS');
    const forced = await w.h.call('delete_user', {
      target_user: { user_id: user.user_id },
      force: true,
    });
    expect(forced.statusCode).toBe(200);
    expect(await w.containersOf(kasm_id)).toHaveLength(0);
  });
});

describe('launch failures', () => {
  it('reports a go command that fails as an error status and leaves no container', async () => {
    const user = await w.member('failer');
    const imageId = await w.addImage({ execConfig: { go: { cmd: 'echo broken; exit 7' } } });
    const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
    const row = await w.waitForStatus(toUuid(kasm_id), 'error');
    // The command's output is the container's, for the log only.
    expect(row.statusMessage).toBe(
      'A start-up command of the workspace (exec_config) exited with 7',
    );
    expect(await w.containersOf(kasm_id)).toHaveLength(0);
  });

  it('reports an image that is missing and cannot be pulled', async () => {
    const user = await w.member('puller');
    const imageId = await w.addImage({ name: 'platform-test/absent:1' });
    const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
    const row = await w.waitForStatus(toUuid(kasm_id), 'error');
    expect(row.statusMessage).toBe(
      'The workspace image is not on the agent and could not be pulled (ENGINE_IMAGE_UNAVAILABLE)',
    );
  });

  it('answers 403 for a workspace the user is not allowed, and 404 for an unknown user', async () => {
    const outsider = await w.h.call('create_user', {
      target_user: { username: 'outsider', password: 'Corr3ct-horse' },
    });
    const refused = await w.h.call('request_kasm', {
      user_id: outsider.json().user.user_id,
      image_id: w.imageId,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('WORKSPACE_NOT_ALLOWED');
    const unknown = await w.h.call('request_kasm', {
      user_id: '0'.repeat(32),
      image_id: w.imageId,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('engine inspection', () => {
  it('labels session containers and gives them an init process', async () => {
    const user = await w.member('inspected');
    const { kasm_id } = await launch(user.user_id);
    const [info] = await w.containersOf(kasm_id);
    const inspected = await docker.getContainer(info.Id).inspect();
    expect(inspected.HostConfig.Init).toBe(true);
    expect(inspected.HostConfig.NanoCpus).toBe(0.5e9);
  });
});
