import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import type { Prisma } from '../../src/generated/prisma/client';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

// What a workspace's config asks for against what a real engine gives (spec §11). That an
// allowance passes privileged through is unit-tested (container-plan.test.ts): engines inside
// containers, like these test machines', refuse the full capability set.
jest.setTimeout(3 * LONG);

let w: SessionWorld;
beforeAll(async () => {
  w = await createSessionWorld();
});
afterAll(() => closeWorld(w));

const CAPS = 'grep CapEff /proc/self/status';

async function launch(username: string, image: Partial<Prisma.ImageUncheckedCreateInput>) {
  const user = await w.member(username);
  const imageId = await w.addImage(image);
  const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
  const run = async (cmd: string) =>
    (
      await w.h.call('exec_command_kasm', { kasm_id, user_id: user.user_id, exec_config: { cmd } })
    ).json().output as string;
  return { kasmId: toUuid(kasm_id), run };
}

describe('a workspace’s exec_config and run_config on a real engine', () => {
  it('runs a go step that asks to be privileged with a plain exec’s capabilities when the workspace does not allow it', async () => {
    const execConfig = { go: { cmd: `${CAPS} > /tmp/go-caps`, privileged: true } };
    const plain = await launch('unprivileged', { execConfig });
    await w.waitForStatus(plain.kasmId, 'running');
    const unprivileged = await plain.run(CAPS);
    expect(unprivileged).toMatch(/^CapEff:\s+[0-9a-f]+\s*$/);
    expect(await plain.run('cat /tmp/go-caps')).toBe(unprivileged);
  });

  it('runs first_launch once for a new profile, before go, and go at every launch', async () => {
    const log = '/home/kasm-user/launches.txt';
    const execConfig = {
      first_launch: { cmd: `echo first >> ${log}` },
      go: { cmd: `echo go >> ${log}` },
    };
    const user = await w.member('newcomer');
    const imageId = await w.addImage({ execConfig });
    for (let i = 0; i < 2; i += 1) {
      const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
      await w.waitForStatus(toUuid(kasm_id), 'running');
      const destroyed = await w.h.call('destroy_kasm', { kasm_id, user_id: user.user_id });
      expect(destroyed.statusCode).toBe(200);
    }
    const kept = readFileSync(path.join(w.profiles, 'newcomer', 'launches.txt'), 'utf8');
    expect(kept).toBe('first\ngo\ngo\n');
  });

  it('refuses a plain-HTTP session server the workspace does not allow, saying why, leaving no container', async () => {
    const { kasmId } = await launch('cleartext', { allowPlainHttp: false });
    const row = await w.waitForStatus(kasmId, 'error');
    expect(row.statusMessage).toMatch(/^run_config.scheme "http" sends the container's password/);
    expect(row.statusMessage).toContain('allow_plain_http');
    expect(await w.containersOf(kasmId)).toHaveLength(0);
  });
});
