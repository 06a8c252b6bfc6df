import type { FastifyInstance } from 'fastify';
import { enginePolicy } from '../../src/engines';
import { toUuid } from '@platform/schemas';
import { formatCounts } from '@platform/testing';
import { buildApp } from '../../src/app';
import { createSettingsRepository, createSettingsService } from '../../src/settings';
import { userInput } from '../factories';
import { createHarness, type Harness } from '../harness';
import { createImage } from '../image-factories';
import {
  FULL_SETTINGS,
  SETUP_SCRIPT,
  seedSettingsTargets,
  settingsDir,
  type SettingsDir,
} from '../settings-files';

// RACE_CONCURRENCY and RACE_ROUNDS make the races wider and longer on purpose.
const CONCURRENCY = Number(process.env.RACE_CONCURRENCY ?? 12);
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 3);
const ADMINISTRATORS = 'Administrators';

let h: Harness;
let replicas: FastifyInstance[];
beforeAll(async () => {
  h = await createHarness();
  replicas = [h.app, await buildApp(h.config), await buildApp(h.config)];
});
afterAll(async () => {
  await Promise.all(replicas.slice(1).map((app) => app.close()));
  await h.close();
});
beforeEach(() => h.reset());

const report = (line: string) => process.stdout.write(`workspace-api races: ${line}\n`);
const countOf = (outcomes: (number | string)[]) =>
  formatCounts(
    outcomes.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}),
  );

/** The same operation from CONCURRENCY clients at once, spread over three replicas. */
async function race(operation: string, body: object): Promise<number[]> {
  const results = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) =>
      replicas[i % replicas.length].inject({
        method: 'POST',
        url: `/api/public/${operation}`,
        payload: { ...h.admin, ...body },
      }),
    ),
  );
  for (const r of results) {
    if (r.statusCode >= 500) throw new Error(`${operation} answered ${r.statusCode}: ${r.body}`);
  }
  return results.map((r) => r.statusCode);
}

const expectOneWinner = (statuses: number[]) => {
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(CONCURRENCY - 1);
};

async function groupId(name: string): Promise<string> {
  const groups = (await h.call('get_groups')).json().groups as { group_id: string; name: string }[];
  return (groups.find((g) => g.name === name) as { group_id: string }).group_id;
}

describe('races: each ends as some serial order would, the losers get 409, never a 500', () => {
  it('creates a username once', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const statuses = await race('create_user', {
        target_user: userInput({ username: `race-${round}` }),
      });
      expectOneWinner(statuses);
      if (round === 0)
        report(
          `${CONCURRENCY} concurrent create_user of one username ×${ROUNDS}: ${countOf(statuses)}`,
        );
    }
    expect(await h.db.user.count({ where: { username: { startsWith: 'race-' } } })).toBe(ROUNDS);
  });

  it('adds a user to a group once', async () => {
    const administrators = await groupId(ADMINISTRATORS);
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = (await h.call('create_user', { target_user: userInput() })).json().user;
      const statuses = await race('add_user_group', {
        target_user: { user_id: user.user_id },
        target_group: { group_id: administrators },
      });
      expectOneWinner(statuses);
      expect(await h.db.userGroup.count({ where: { userId: toUuid(user.user_id) } })).toBe(2);
      if (round === 0)
        report(
          `${CONCURRENCY} concurrent add_user_group of one pair ×${ROUNDS}: ${countOf(statuses)}`,
        );
    }
  });

  it('adds a workspace to a group once', async () => {
    const group = (await h.call('create_group', { target_group: { name: 'Developers' } })).json()
      .group.group_id;
    for (let round = 0; round < ROUNDS; round += 1) {
      const image = await createImage(h.db);
      const statuses = await race('add_images_group', {
        target_group: { group_id: group },
        target_image: { image_id: image },
      });
      expectOneWinner(statuses);
      if (round === 0)
        report(
          `${CONCURRENCY} concurrent add_images_group of one pair ×${ROUNDS}: ${countOf(statuses)}`,
        );
    }
    const images = (await h.call('get_images_group', { target_group: { group_id: group } })).json()
      .images;
    expect(images).toHaveLength(ROUNDS);
  });

  it('creates a group name once', async () => {
    const statuses = await race('create_group', { target_group: { name: 'Contended' } });
    expectOneWinner(statuses);
    expect(await h.db.group.count({ where: { name: 'Contended' } })).toBe(1);
    report(`${CONCURRENCY} concurrent create_group of one name: ${countOf(statuses)}`);
  });

  it('never silently drops a member added while its group is deleted', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS * 4; round += 1) {
      const group = (
        await h.call('create_group', { target_group: { name: `Doomed ${round}` } })
      ).json().group.group_id;
      const user = (await h.call('create_user', { target_user: userInput() })).json().user.user_id;
      const [added, deleted] = await Promise.all([
        replicas[0].inject({
          method: 'POST',
          url: '/api/public/add_user_group',
          payload: {
            ...h.admin,
            target_user: { user_id: user },
            target_group: { group_id: group },
          },
        }),
        replicas[1].inject({
          method: 'POST',
          url: '/api/public/delete_group',
          payload: { ...h.admin, target_group: { group_id: group } },
        }),
      ]);
      expect([added.statusCode, deleted.statusCode].every((s) => s < 500)).toBe(true);
      const exists = (await h.db.group.count({ where: { name: `Doomed ${round}` } })) === 1;
      // Either the add came first (the unforced delete is refused) or the delete did (the add finds no group).
      if (added.statusCode === 200) {
        expect(deleted.json().code).toBe('GROUP_HAS_MEMBERS');
        expect(exists).toBe(true);
      } else {
        expect(deleted.statusCode).toBe(200);
        expect([404, 409]).toContain(added.statusCode);
        expect(exists).toBe(false);
      }
      expect(await h.db.userGroup.count({ where: { userId: toUuid(user) } })).toBe(
        added.statusCode === 200 ? 2 : 1,
      );
      outcomes.push(`${added.statusCode}/${deleted.statusCode}`);
    }
    report(`${outcomes.length} races of add_user_group against delete_group: ${countOf(outcomes)}`);
  });
});

describe('races of settings apply', () => {
  let files: SettingsDir;
  beforeAll(async () => {
    files = await settingsDir();
    await files.write('scripts/setup.sh', SETUP_SCRIPT);
  });
  afterAll(() => files.remove());
  beforeEach(() => seedSettingsTargets(h));

  const applyAll = (paths: string[]) => {
    const settings = createSettingsService({
      settings: createSettingsRepository(h.data),
      enginePolicy: enginePolicy(h.config),
    });
    return Promise.all(paths.map((p) => settings.apply(p, { prune: false, dryRun: false })));
  };

  it('applies the same file once when applied concurrently', async () => {
    const full = await files.write('full.yaml', FULL_SETTINGS);
    const results = await applyAll(Array(CONCURRENCY).fill(full));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 'applied')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'unchanged')).toHaveLength(CONCURRENCY - 1);
    report(`${CONCURRENCY} concurrent applies of one file: ${countOf(statuses)}`);
  });

  it('ends with exactly one of two files applied concurrently, as if in some serial order', async () => {
    const a = await files.write('a.yaml', FULL_SETTINGS);
    const b = await files.write('b.yaml', FULL_SETTINGS.replace(/proxy_port: 0/, 'proxy_port: 80'));
    const settings = createSettingsService({
      settings: createSettingsRepository(h.data),
      enginePolicy: enginePolicy(h.config),
    });
    // What each file alone leaves in the database, as the export sees it.
    await applyAll([a]);
    const onlyA = await settings.export();
    await applyAll([b]);
    const onlyB = await settings.export();
    const results = await applyAll(Array.from({ length: CONCURRENCY }, (_, i) => (i % 2 ? a : b)));
    const final = await settings.export();
    expect(onlyA).not.toBe(onlyB);
    expect([onlyA, onlyB]).toContain(final);
    report(
      `${CONCURRENCY} concurrent applies of two files: ${countOf(results.map((r) => r.status))}, final state one of the two`,
    );
  });
});
