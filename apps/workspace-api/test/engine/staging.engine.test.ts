import { parseExposition, sampleSum } from '@platform/metrics';
import { toUuid, toWireId } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { VALID_PASSWORD } from '../factories';
import { signIn, webClient } from '../web/web-client';
import { closeWorld, createSessionWorld, docker, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(4 * LONG);

const METRICS_TOKEN = 'metrics-token-for-the-staging-test';
let w: SessionWorld;
/** A workspace with no persistent profile: the one staging can serve. */
let imageId: string;
beforeAll(async () => {
  w = await createSessionWorld({ SESSION_KEEPALIVE_SECONDS: '300', METRICS_TOKEN });
  imageId = await w.addImage({ persistentProfilePath: '' });
});
afterAll(() => closeWorld(w));

afterEach(async () => {
  // Each test starts with no staging config and no session of the staged workspace.
  for (const config of (await w.h.call('get_staging_configs', {})).json().staging_configs) {
    await w.h.call('delete_staging_config', {
      target_staging_config: { staging_config_id: config.staging_config_id },
    });
  }
  await w.h.app.sessionWorker.round();
  for (const kasm of await w.h.db.kasm.findMany({
    where: { status: { in: ['requested', 'provisioning', 'starting', 'running'] } },
  })) {
    if (kasm.userId) await w.h.call('destroy_kasm', { kasm_id: toWireId(kasm.id) });
  }
});

async function stage(numSessions: number, expiration = 1) {
  const res = await w.h.call('create_staging_config', {
    target_staging_config: {
      zone_id: w.zoneId,
      image_id: imageId,
      num_sessions: numSessions,
      expiration,
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json().staging_config as { staging_config_id: string };
}

const unassigned = (stagingConfigId?: string) =>
  w.h.db.kasm.findMany({
    where: {
      userId: null,
      status: { in: ['requested', 'provisioning', 'starting', 'running'] },
      ...(stagingConfigId ? { stagingConfigId: toUuid(stagingConfigId) } : {}),
    },
    orderBy: { createdAt: 'asc' },
  });

/** Runs worker rounds until `count` staged sessions of the config are running. */
async function staged(stagingConfigId: string, count: number) {
  return waitFor(async () => {
    await w.h.app.sessionWorker.round();
    const rows = await unassigned(stagingConfigId);
    const running = rows.filter((row) => row.status === 'running');
    if (rows.length !== count || running.length !== count) {
      throw new Error(`${running.length} of ${rows.length} staged sessions running, want ${count}`);
    }
    return rows;
  }, LONG);
}

/** A staging pool's gauge as /metrics tells it. */
async function poolGauge(name: string, stagingConfigId: string) {
  const res = await w.h.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return sampleSum(parseExposition(res.body), name, { staging_config: stagingConfigId });
}

const running = async (kasmId: string) =>
  (await docker.getContainer((await w.containersOf(kasmId))[0].Id).inspect()).State.Running;

describe('staging configs', () => {
  it('answers 404 for an unknown zone or workspace, 409 for a second config of the pair, 400 for bad numbers', async () => {
    const bad = (body: Record<string, unknown>) =>
      w.h.call('create_staging_config', {
        target_staging_config: {
          zone_id: w.zoneId,
          image_id: imageId,
          num_sessions: 1,
          expiration: 1,
          ...body,
        },
      });
    expect((await bad({ zone_id: toWireId(toUuid(w.agentId)) })).json().code).toBe(
      'ZONE_NOT_FOUND',
    );
    expect((await bad({ image_id: w.zoneId })).json().code).toBe('IMAGE_NOT_FOUND');
    expect((await bad({ num_sessions: -1 })).statusCode).toBe(400);
    expect((await bad({ expiration: 0 })).statusCode).toBe(400);
    const first = await stage(0);
    const again = await bad({});
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('STAGING_CONFIG_TAKEN');
    const updated = await w.h.call('update_staging_config', {
      target_staging_config: { staging_config_id: first.staging_config_id, expiration: 0.5 },
    });
    expect(updated.json().staging_config).toMatchObject({ num_sessions: 0, expiration: 0.5 });
    const gone = await w.h.call('delete_staging_config', {
      target_staging_config: { staging_config_id: w.zoneId },
    });
    expect(gone.json().code).toBe('STAGING_CONFIG_NOT_FOUND');
  });

  it('refuses a workspace whose profile is kept per user: a staged session cannot mount it', async () => {
    const res = await w.h.call('create_staging_config', {
      target_staging_config: {
        zone_id: w.zoneId,
        image_id: w.imageId,
        num_sessions: 1,
        expiration: 1,
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('STAGING_NOT_POSSIBLE');
  });
});

describe('a staging pool', () => {
  it('fills with running unassigned sessions that count against the agent, hands one to request_kasm and refills', async () => {
    const config = await stage(2);
    const pool = await staged(config.staging_config_id, 2);
    for (const row of pool) expect(await running(row.id)).toBe(true);
    const configs = (await w.h.call('get_staging_configs', {})).json().staging_configs;
    expect(configs).toEqual([
      expect.objectContaining({ num_sessions: 2, num_staged: 2, num_starting: 0, expiration: 1 }),
    ]);
    const id = config.staging_config_id;
    expect(await poolGauge('workspace_staging_desired_sessions', id)).toBe(2);
    expect(await poolGauge('workspace_staging_ready_sessions', id)).toBe(2);
    expect(await poolGauge('workspace_staging_starting_sessions', id)).toBe(0);
    // Nobody's sessions: not in get_kasms.
    expect((await w.h.call('get_kasms', {})).json().kasms).toHaveLength(0);
    const agent = (await w.h.call('get_agents', {})).json().agents[0];
    expect(agent.allocated.cores).toBeCloseTo(1);

    const user = await w.member('instant');
    const res = await w.h.call('request_kasm', { user_id: user.user_id, image_id: imageId });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.status).toBe('running');
    expect(pool.map((row) => toWireId(row.id))).toContain(answer.kasm_id);
    const claimed = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(answer.kasm_id) } });
    expect(claimed.userId).toBe(toUuid(user.user_id));
    expect(claimed.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
    const status = await w.h.call('get_kasm_status', {
      kasm_id: answer.kasm_id,
      user_id: user.user_id,
    });
    expect(status.json().kasm).toMatchObject({
      operational_status: 'running',
      username: 'instant',
    });
    expect(answer.kasm_url).toContain(`/kasm/${answer.kasm_id}/`);

    const refilled = await staged(config.staging_config_id, 2);
    expect(refilled.map((row) => toWireId(row.id))).not.toContain(answer.kasm_id);
    expect(await running(answer.kasm_id)).toBe(true);
  });

  it('takes the web page’s Launch straight into the staged session, with a working link', async () => {
    const config = await stage(1);
    const [row] = await staged(config.staging_config_id, 1);
    const user = await w.member('from-the-page');
    const client = webClient(w.h, { host: 'localhost' });
    await signIn(client, user.username, VALID_PASSWORD);
    await client.get('/');
    const launched = await client.post(`/workspaces/${imageId}/launch`, { _csrf: client.csrf() });
    expect(launched.statusCode).toBe(303);
    const location = new URL(String(launched.headers.location), 'http://localhost');
    expect(location.pathname).toBe(`/kasm/${toWireId(row.id)}/`);
    // The link admits the browser: the proxy spends its token for a grant cookie.
    const opened = await client.get(`${location.pathname}${location.search}`);
    expect(opened.statusCode).toBeLessThan(400);
    expect(client.cookies.has('kasm_grant')).toBe(true);
  });

  it('gives concurrent requests distinct sessions, and launches for those that find none', async () => {
    const config = await stage(2);
    const pool = (await staged(config.staging_config_id, 2)).map((row) => toWireId(row.id));
    const users = await Promise.all(['c1', 'c2', 'c3'].map((name) => w.member(name)));
    const answers = await Promise.all(
      users.map(async (user) =>
        (await w.h.call('request_kasm', { user_id: user.user_id, image_id: imageId })).json(),
      ),
    );
    const ids = answers.map((a) => a.kasm_id);
    expect(new Set(ids).size).toBe(3);
    const fromPool = ids.filter((id) => pool.includes(id));
    expect(fromPool).toHaveLength(2);
    const cold = answers.find((a) => !pool.includes(a.kasm_id));
    expect(cold.status).toBe('requested');
    await w.waitForStatus(toUuid(cold.kasm_id), 'running');
  });

  it('counts against capacity: a full agent refuses another launch but still hands out its staged session', async () => {
    await w.h.call('update_agent', { target_agent: { agent_id: w.agentId, cores_override: 1 } });
    try {
      const config = await stage(2);
      await staged(config.staging_config_id, 2);
      const user = await w.member('capacity');
      const other = await w.h.call('request_kasm', { user_id: user.user_id, image_id: w.imageId });
      expect(other.statusCode).toBe(503);
      expect(other.json().code).toBe('NO_AGENT_AVAILABLE');
      const instant = await w.h.call('request_kasm', { user_id: user.user_id, image_id: imageId });
      expect(instant.json().status).toBe('running');
      // The agent stays full: no refill until room is made.
      await w.h.app.sessionWorker.round();
      expect(await unassigned(config.staging_config_id)).toHaveLength(1);
    } finally {
      await w.h.call('update_agent', { target_agent: { agent_id: w.agentId, cores_override: 64 } });
    }
  });

  it('retires the surplus when lowered, everything unassigned when deleted, and leaves claimed sessions alone', async () => {
    const config = await stage(3);
    const pool = await staged(config.staging_config_id, 3);
    const user = await w.member('keeps-hers');
    const claimed = (
      await w.h.call('request_kasm', { user_id: user.user_id, image_id: imageId })
    ).json();
    await w.h.call('update_staging_config', {
      target_staging_config: { staging_config_id: config.staging_config_id, num_sessions: 1 },
    });
    const left = await staged(config.staging_config_id, 1);
    const retired = pool.filter(
      (row) => row.id !== left[0].id && toWireId(row.id) !== claimed.kasm_id,
    );
    expect(retired).toHaveLength(1);
    for (const row of retired) {
      expect((await w.h.db.kasm.findUniqueOrThrow({ where: { id: row.id } })).status).toBe(
        'destroyed',
      );
      expect(await w.containersOf(row.id)).toHaveLength(0);
    }

    await w.h.call('delete_staging_config', {
      target_staging_config: { staging_config_id: config.staging_config_id },
    });
    await w.h.app.sessionWorker.round();
    expect(await unassigned()).toHaveLength(0);
    expect(await w.containersOf(left[0].id)).toHaveLength(0);
    expect(await running(claimed.kasm_id)).toBe(true);
  });

  it('replaces a staged session that expires or whose container dies', async () => {
    const config = await stage(2);
    const [expiring, dying] = await staged(config.staging_config_id, 2);
    await w.h.db.kasm.update({
      where: { id: expiring.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await docker.getContainer((await w.containersOf(dying.id))[0].Id).remove({ force: true });
    const fresh = await staged(config.staging_config_id, 2);
    expect(fresh.map((row) => row.id)).not.toContain(expiring.id);
    expect(fresh.map((row) => row.id)).not.toContain(dying.id);
    expect((await w.h.db.kasm.findUniqueOrThrow({ where: { id: expiring.id } })).status).toBe(
      'destroyed',
    );
    expect((await w.h.db.kasm.findUniqueOrThrow({ where: { id: dying.id } })).status).toBe('error');
  });
});

describe('what a staged session cannot carry', () => {
  it("launches for a user with file mappings of their own, and hands the staged session to the next user with the workspace's mappings", async () => {
    await w.h.call('create_file_mapping', {
      target_file_mapping: {
        image_id: imageId,
        name: 'shared',
        destination: '/etc/shared.txt',
        content: 'for all',
      },
    });
    const config = await stage(1);
    const [row] = await staged(config.staging_config_id, 1);
    const mapped = await w.member('has-mappings');
    await w.h.call('create_file_mapping', {
      target_file_mapping: {
        user_id: mapped.user_id,
        name: 'mine',
        destination: '/etc/mine.txt',
        content: 'mine',
      },
    });
    const own = (
      await w.h.call('request_kasm', { user_id: mapped.user_id, image_id: imageId })
    ).json();
    expect(own.kasm_id).not.toBe(toWireId(row.id));
    await w.waitForStatus(toUuid(own.kasm_id), 'running');
    const mine = await w.h.call('exec_command_kasm', {
      kasm_id: own.kasm_id,
      user_id: mapped.user_id,
      exec_config: { cmd: 'cat /etc/mine.txt /etc/shared.txt' },
    });
    expect(mine.json().output).toBe('minefor all');

    const plain = await w.member('plain');
    const withEnv = (
      await w.h.call('request_kasm', {
        user_id: plain.user_id,
        image_id: imageId,
        environment: { A: 'b' },
      })
    ).json();
    expect(withEnv.kasm_id).not.toBe(toWireId(row.id));
    await w.h.call('destroy_kasm', { kasm_id: withEnv.kasm_id });
    const taken = (
      await w.h.call('request_kasm', { user_id: plain.user_id, image_id: imageId })
    ).json();
    expect(taken.kasm_id).toBe(toWireId(row.id));
    const shared = await w.h.call('exec_command_kasm', {
      kasm_id: taken.kasm_id,
      user_id: plain.user_id,
      exec_config: { cmd: 'cat /etc/shared.txt' },
    });
    expect(shared.json().output).toBe('for all');
  });

  it('retires, and never hands out, a staged session made before its workspace’s run or exec config or allowances changed', async () => {
    const config = await stage(1);
    const [row] = await staged(config.staging_config_id, 1);
    const allow = (allow_root_exec: boolean) =>
      w.h.call('update_image', { target_image: { image_id: imageId, allow_root_exec } });
    expect((await allow(true)).statusCode).toBe(200);
    try {
      const user = await w.member('after-change');
      const res = (
        await w.h.call('request_kasm', { user_id: user.user_id, image_id: imageId })
      ).json();
      expect(res.kasm_id).not.toBe(toWireId(row.id));
      const [fresh] = await staged(config.staging_config_id, 1);
      expect(fresh.id).not.toBe(row.id);
      const old = await w.h.db.kasm.findUniqueOrThrow({ where: { id: row.id } });
      expect([old.userId, old.status]).toEqual([null, 'destroyed']);
      await w.waitForStatus(toUuid(res.kasm_id), 'running');
      await w.h.call('destroy_kasm', { kasm_id: res.kasm_id });
    } finally {
      await allow(false);
    }
  });

  it('is not staged once its workspace gets a per-user profile, and a waiting one is not handed out', async () => {
    const config = await stage(1);
    const [row] = await staged(config.staging_config_id, 1);
    await w.h.db.image.update({
      where: { id: toUuid(imageId) },
      data: { persistentProfilePath: `${w.profiles}/{username}` },
    });
    try {
      const user = await w.member('profiled');
      const res = (
        await w.h.call('request_kasm', { user_id: user.user_id, image_id: imageId })
      ).json();
      expect(res.kasm_id).not.toBe(toWireId(row.id));
      await w.waitForStatus(toUuid(res.kasm_id), 'running');
      await w.h.call('destroy_kasm', { kasm_id: res.kasm_id });
      // The pool is not refilled with sessions no one could take.
      await w.h.call('destroy_kasm', { kasm_id: toWireId(row.id) });
      await w.h.app.sessionWorker.round();
      expect(await unassigned(config.staging_config_id)).toHaveLength(0);
    } finally {
      await w.h.db.image.update({
        where: { id: toUuid(imageId) },
        data: { persistentProfilePath: '' },
      });
    }
  });
});
