import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { describeInChange } from './audit-in-change';
import type { Harness } from '../harness';
import { createSessionWorld, docker, LONG, SESSION_LABEL } from '../engine/session-fixture';

// The session writes that change the database write their audit event in the change's own
// transaction, on a real engine: request_kasm with the reservation (the launch starts after it
// commits), keepalive, stop/pause/resume with the move that ends them (the engine acts first),
// destroy_kasm with its claim (the container's removal follows).

jest.setTimeout(4 * LONG);

type Wire = Record<string, Record<string, string>>;
let current: { h: Harness; profiles: string } | null = null;

/** A member of the world's group and the world's workspace, on a fresh world in `h`. */
async function launchable(h: Harness) {
  const world = await createSessionWorld({}, h);
  current = { h, profiles: world.profiles };
  const user = await world.member('ada');
  return { world, body: { user_id: user.user_id, image_id: world.imageId } };
}
/** A running session of the member; stopped first when `stopped`. */
async function running(h: Harness, stopped = false) {
  const { world, body } = await launchable(h);
  const { kasm_id } = await world.request(body);
  await world.waitForStatus(toUuid(kasm_id), 'running');
  if (stopped) {
    expect((await h.call('stop_kasm', { kasm_id })).statusCode).toBe(200);
    await h.db.auditEvent.deleteMany({ where: { operation: 'stop_kasm' } });
  }
  return { kasm_id };
}
const PASSING = ['requested', 'provisioning', 'starting', 'stopping'];

// Each test's sessions go with it: launches under way end first, then their containers.
afterEach(async () => {
  if (!current) return;
  const { h, profiles } = current;
  current = null;
  await waitFor(async () => {
    const passing = await h.db.kasm.count({ where: { status: { in: PASSING } } });
    if (passing > 0) throw new Error(`${passing} sessions still passing`);
  }, LONG);
  const ids = new Set(
    (await h.db.kasm.findMany({ select: { id: true } })).map((k) => k.id.replaceAll('-', '')),
  );
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [SESSION_LABEL] },
  });
  await Promise.all(
    containers
      .filter((c) => ids.has(c.Labels[SESSION_LABEL]))
      .map((c) =>
        docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
  );
  await rm(profiles, { recursive: true, force: true });
});

const statuses = (h: Harness) => h.db.kasm.findMany({ select: { status: true } });
const kasmIdOf = (body: Wire) => String(body.kasm_id);
const moved = (from: string, to: string) => (before: unknown, after: unknown) => {
  expect(before).toMatchObject({ operational_status: from, username: 'ada' });
  expect(after).toMatchObject({ operational_status: to, username: 'ada' });
};

describeInChange(
  [
    {
      operation: 'request_kasm',
      table: 'kasm',
      // The launcher updates the session after the request: the insert is the request's change.
      statements: 'INSERT',
      arrange: async (h) => (await launchable(h)).body,
      state: (h) => h.db.kasm.count(),
      targetId: (_body, answer) => String(answer.kasm_id),
      snapshots: (before, after) => {
        expect(before).toBeNull();
        expect(after).toMatchObject({ operational_status: 'requested', username: 'ada' });
        expect(JSON.stringify(after)).not.toMatch(/token/i);
      },
    },
    {
      operation: 'keepalive',
      table: 'kasm',
      arrange: (h) => running(h),
      state: (h) => h.db.kasm.findMany({ select: { keepaliveAt: true, expiresAt: true } }),
      targetId: kasmIdOf,
      snapshots: (before, after) => {
        const keptAlive = (s: unknown) => (s as { keepalive_date: string | null }).keepalive_date;
        expect(keptAlive(after)).not.toBeNull();
        expect(keptAlive(after)).not.toEqual(keptAlive(before));
      },
    },
    {
      operation: 'stop_kasm',
      table: 'kasm',
      statements: 'UPDATE',
      when: "NEW.status = 'stopped'",
      arrange: (h) => running(h),
      state: statuses,
      targetId: kasmIdOf,
      snapshots: moved('running', 'stopped'),
    },
    {
      operation: 'pause_kasm',
      table: 'kasm',
      statements: 'UPDATE',
      when: "NEW.status = 'paused'",
      arrange: (h) => running(h),
      state: statuses,
      targetId: kasmIdOf,
      snapshots: moved('running', 'paused'),
    },
    {
      operation: 'resume_kasm',
      table: 'kasm',
      statements: 'UPDATE',
      // Resuming a stopped session reserves it (starting) first: running is the change.
      when: "NEW.status = 'running'",
      arrange: (h) => running(h, true),
      state: statuses,
      targetId: kasmIdOf,
      snapshots: moved('starting', 'running'),
    },
    {
      operation: 'destroy_kasm',
      table: 'kasm',
      statements: 'UPDATE',
      // The claim (stopping) is the change; the removal and "destroyed" follow it.
      when: "NEW.status = 'stopping'",
      arrange: (h) => running(h),
      state: statuses,
      targetId: kasmIdOf,
      snapshots: moved('running', 'stopping'),
    },
  ],
  {
    SESSION_URL_SCHEME: 'http',
    // The worlds' profile folders are made in the temporary folder.
    PROFILE_ROOT: realpathSync(tmpdir()),
  },
);
