import { randomUUID } from 'node:crypto';
import { hashSecret, randomSecret } from '@platform/secrets';
import { toUuid, toWireId } from '@platform/schemas';
import { ADMINISTRATORS, createGroup, createMember } from '../../test/group-factories';
import { createHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';

// Sessions without a Docker engine: what a platform with no usable agent answers. The launches
// themselves are tested against a real engine in test/engine/.
let h: Harness;
beforeAll(async () => {
  // A socket the operator allows but where no engine listens: an offline agent.
  h = await createHarness({ ENGINE_SOCKET_PATHS: '/nonexistent/docker.sock' });
});
afterAll(async () => h?.close());
beforeEach(async () => {
  await h.reset();
  await h.db.agent.deleteMany();
  await h.db.zone.deleteMany();
});

async function allowedUser() {
  const group = await createGroup(h);
  const user = await createMember(h, group.group_id);
  const imageId = await createImage(h.db);
  await h.call('add_images_group', {
    target_group: { group_id: group.group_id },
    target_image: { image_id: imageId },
  });
  return { user, imageId };
}

describe('request_kasm without a usable agent', () => {
  it('answers 503 NO_AGENT_AVAILABLE when no agent is registered', async () => {
    const { user, imageId } = await allowedUser();
    const res = await h.call('request_kasm', { user_id: user.user_id, image_id: imageId });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'NO_AGENT_AVAILABLE',
      detail: 'No agent is registered to run sessions',
    });
    expect(await h.db.kasm.count()).toBe(0);
  });

  it('names each agent that cannot run sessions, and why', async () => {
    const { user, imageId } = await allowedUser();
    const zone = (
      await h.call('create_zone', {
        target_zone: { name: 'z', proxy_hostname: 'desk.example.com' },
      })
    ).json().zone;
    await h.call('create_agent', {
      target_agent: { hostname: 'planner', zone_id: zone.zone_id, cores: 8, memory: 2 ** 34 },
    });
    await h.call('create_agent', {
      target_agent: {
        hostname: 'gone',
        zone_id: zone.zone_id,
        docker_url: 'unix:///nonexistent/docker.sock',
      },
    });
    const res = await h.call('request_kasm', { user_id: user.user_id, image_id: imageId });
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toBe('No agent is online to run sessions');
    const errors = Object.fromEntries(
      res.json().errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    expect(errors['agent planner']).toBe('The agent has no engine address (docker_url)');
    expect(errors['agent gone']).toBe(
      "The agent is offline: The agent's engine does not answer (ENGINE_UNREACHABLE)",
    );
  });

  it('reports a missing image_id of a sharing launch with 400, before placing', async () => {
    const { user } = await allowedUser();
    const res = await h.call('request_kasm', { user_id: user.user_id, enable_sharing: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['image_id']);
    expect(await h.db.kasm.count()).toBe(0);
  });

  it('answers 409 SESSION_LIMIT_REACHED before placing when the group allows no session', async () => {
    const group = await createGroup(h, { name: 'None allowed', max_kasms_per_user: 0 });
    const user = await createMember(h, group.group_id);
    const res = await h.call('request_kasm', {
      user_id: user.user_id,
      image_id: await createImage(h.db),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'SESSION_LIMIT_REACHED',
      detail: 'The user has 0 live sessions and may hold 0; destroy one first',
    });
  });
});

describe('session operations', () => {
  it('answer 404 KASM_NOT_FOUND for an unknown session', async () => {
    const kasm_id = toWireId(randomUUID());
    for (const [operation, body] of [
      ['get_kasm_status', { kasm_id }],
      ['keepalive', { kasm_id }],
      ['destroy_kasm', { kasm_id }],
      ['exec_command_kasm', { kasm_id, exec_config: { cmd: 'true' } }],
    ] as const) {
      const res = await h.call(operation, body);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('KASM_NOT_FOUND');
    }
  });

  it('refuses get_kasm_screenshot and get_kasm_frame to a key without sessions.screen: a screen shows the user’s work', async () => {
    const kasm_id = toWireId(randomUUID());
    for (const held of [['sessions.view'], ['sessions.modify'], ['sessions.drive']] as const) {
      const key = await h.issueKey([...held]);
      for (const operation of ['get_kasm_screenshot', 'get_kasm_frame']) {
        const refused = await h.call(operation, { kasm_id }, key);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().detail).toContain('sessions.screen');
      }
    }
    const screen = await h.issueKey(['sessions.screen']);
    expect((await h.call('get_kasm_screenshot', { kasm_id }, screen)).statusCode).toBe(404);
    expect((await h.call('get_kasm_frame', { kasm_id }, screen)).statusCode).toBe(404);
  });

  it('refuses send_kasm_input to a key without sessions.drive, and answers an unknown session 404', async () => {
    const kasm_id = toWireId(randomUUID());
    const actions = [{ type: 'key', keys: 'Return' }];
    for (const held of [['sessions.modify'], ['sessions.screen']] as const) {
      const refused = await h.call(
        'send_kasm_input',
        { kasm_id, actions },
        await h.issueKey([...held]),
      );
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toContain('sessions.drive');
    }
    const drive = await h.issueKey(['sessions.drive']);
    const unknown = await h.call('send_kasm_input', { kasm_id, actions }, drive);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('KASM_NOT_FOUND');
  });

  it('refuses send_kasm_input bodies out of bounds at the edge: 400 naming the field', async () => {
    const kasm_id = toWireId(randomUUID());
    const call = (actions: unknown) => h.call('send_kasm_input', { kasm_id, actions });
    expect((await call([])).statusCode).toBe(400);
    const many = Array.from({ length: 101 }, () => ({ type: 'move', x: 1, y: 1 }));
    expect((await call(many)).statusCode).toBe(400);
    expect((await call([{ type: 'type', text: 'x'.repeat(2001) }])).statusCode).toBe(400);
    expect((await call([{ type: 'move', x: -1, y: 0 }])).statusCode).toBe(400);
    expect((await call([{ type: 'scroll', x: 1, y: 1, delta: 0 }])).statusCode).toBe(400);
    expect((await call([{ type: 'click', x: 1, y: 1, button: 'fourth' }])).statusCode).toBe(400);
    expect((await call([{ type: 'jump' }])).statusCode).toBe(400);
  });

  it('answer 400 for a malformed id, a missing user_id and an environment value that is not text', async () => {
    expect((await h.call('get_kasm_status', { kasm_id: 'nope' })).statusCode).toBe(400);
    expect((await h.call('request_kasm', { image_id: toWireId(randomUUID()) })).statusCode).toBe(
      400,
    );
    const res = await h.call('request_kasm', {
      user_id: toWireId(randomUUID()),
      image_id: toWireId(randomUUID()),
      environment: { GREETING: 42 },
    });
    expect(res.statusCode).toBe(400);
  });

  it('need their permissions: sessions.view to read, sessions.modify, sessions.delete, users.auth_session to launch', async () => {
    const viewer = await h.issueKey(['sessions.view'], { readOnly: true });
    expect((await h.call('get_kasms', {}, viewer)).statusCode).toBe(200);
    const kasm_id = toWireId(randomUUID());
    expect((await h.call('keepalive', { kasm_id }, viewer)).statusCode).toBe(403);
    expect((await h.call('destroy_kasm', { kasm_id }, viewer)).statusCode).toBe(403);
    const launcher = await h.issueKey(['sessions.modify']);
    const launch = await h.call(
      'request_kasm',
      { user_id: toWireId(randomUUID()), image_id: toWireId(randomUUID()) },
      launcher,
    );
    expect(launch.statusCode).toBe(403);
    expect((await h.call('get_kasms', {}, null)).statusCode).toBe(401);
  });

  it('lists no sessions when none runs', async () => {
    const res = await h.call('get_kasms');
    expect(res.json()).toEqual({ kasms: [], current_time: expect.any(String) });
  });
});

/**
 * A session recorded as running, written straight to the database (no engine runs here), and
 * its current connect token.
 */
async function runningSession() {
  const { user, imageId } = await allowedUser();
  const zone = (
    await h.call('create_zone', { target_zone: { name: 'z', proxy_hostname: 'desk.example.com' } })
  ).json().zone;
  const agent = (
    await h.call('create_agent', {
      target_agent: { hostname: 'planner', zone_id: zone.zone_id, cores: 8, memory: 2 ** 34 },
    })
  ).json().agent;
  const id = randomUUID();
  const token = randomSecret(32);
  const now = Date.now();
  await h.db.kasm.create({
    data: {
      id,
      userId: toUuid(user.user_id),
      imageId: toUuid(imageId),
      agentId: toUuid(agent.agent_id),
      status: 'running',
      cores: 1,
      memory: BigInt(2 ** 30),
      plan: { sessionUrl: `https://desk.example.com/kasm/${toWireId(id)}/` },
      tokenHash: hashSecret(token),
      containerSecret: 'secret',
      expiresAt: new Date(now + 3_600_000),
      hardExpiresAt: new Date(now + 86_400_000),
    },
  });
  return { kasm_id: toWireId(id), token, user, imageId, agent };
}

/** Trades a connect token at the session proxy: 303 with a cookie while the link works. */
/** Opens a connect link on the zone's host, the only one where a link mints a grant. */
const openLink = (kasm_id: string, token: string) =>
  h.inject({
    method: 'GET',
    url: `/kasm/${kasm_id}/?kasm_token=${encodeURIComponent(token)}`,
    headers: { host: 'desk.example.com' },
  });

describe('get_kasm_status and the connect link', () => {
  it('mints no link for a read-only sessions.view key: kasm_url is null and the current link keeps working', async () => {
    const { kasm_id, token } = await runningSession();
    const viewer = await h.issueKey(['sessions.view'], { readOnly: true });
    const res = await h.call('get_kasm_status', { kasm_id }, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kasm_id, status: 'running', kasm_url: null });
    expect((await openLink(kasm_id, token)).statusCode).toBe(303);
  });

  it('mints no link for a read-only key even with global_admin', async () => {
    const { kasm_id } = await runningSession();
    const viewer = await h.issueKey(['global_admin'], { readOnly: true });
    expect((await h.call('get_kasm_status', { kasm_id }, viewer)).json().kasm_url).toBeNull();
  });

  it('mints a fresh link for a key with users.auth_session, and the previous one stops working', async () => {
    const { kasm_id, token } = await runningSession();
    const actor = await h.issueKey(['sessions.view', 'users.auth_session']);
    const res = await h.call('get_kasm_status', { kasm_id }, actor);
    const url = new URL(res.json().kasm_url);
    expect(url.pathname).toBe(`/kasm/${kasm_id}/`);
    expect((await openLink(kasm_id, token)).statusCode).toBe(403);
    expect((await openLink(kasm_id, url.searchParams.get('kasm_token')!)).statusCode).toBe(303);
  });
});

describe('connect tokens guessed at the proxy', () => {
  it('refuses an address with 429 once its wrong tokens for a session reach AUTH_FAILURE_LIMIT; another address still connects', async () => {
    const { kasm_id, token } = await runningSession();
    const guess = (secret: string, remoteAddress: string) =>
      h.inject({
        method: 'GET',
        url: `/kasm/${kasm_id}/?kasm_token=${secret}`,
        headers: { host: 'desk.example.com' },
        remoteAddress,
      });
    // AUTH_FAILURE_LIMIT defaults to 20 per (address, session) and window.
    const statuses = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await guess(`wrong-${i}`, '203.0.113.7')).statusCode);
    expect(statuses).toEqual([...Array(20).fill(403), 429]);
    const refused = await guess(token, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
    expect(refused.json().detail).toMatch(/^Too many failed session links from this address/);
    expect((await guess(token, '198.51.100.7')).statusCode).toBe(303);
  });
});

describe('get_user_kasms', () => {
  it("lists the user's live sessions as get_kasms lists them, and none for a user without any", async () => {
    const { kasm_id } = await runningSession();
    const all = (await h.call('get_kasms')).json();
    const owner = all.kasms[0].user_id;
    const res = await h.call('get_user_kasms', { user_id: owner });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ kasms: all.kasms, current_time: expect.any(String) });
    expect(res.json().kasms.map((k: { kasm_id: string }) => k.kasm_id)).toEqual([kasm_id]);
    const idle = await createMember(h, (await createGroup(h, { name: 'Idle' })).group_id);
    expect((await h.call('get_user_kasms', { user_id: idle.user_id })).json().kasms).toEqual([]);
  });

  it('answers 404 USER_NOT_FOUND for an unknown user and 400 for a malformed or missing user_id', async () => {
    const unknown = await h.call('get_user_kasms', { user_id: toWireId(randomUUID()) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('USER_NOT_FOUND');
    expect((await h.call('get_user_kasms', { user_id: 'nope' })).statusCode).toBe(400);
    expect((await h.call('get_user_kasms', {})).statusCode).toBe(400);
  });

  it('needs sessions.view, as get_kasms does; a read-only key may call it', async () => {
    const { user } = await allowedUser();
    const viewer = await h.issueKey(['sessions.view'], { readOnly: true });
    const body = { user_id: user.user_id };
    expect((await h.call('get_user_kasms', body, viewer)).statusCode).toBe(200);
    const other = await h.issueKey(['users.view', 'sessions.modify']);
    expect((await h.call('get_user_kasms', body, other)).json().code).toBe('FORBIDDEN');
    expect((await h.call('get_user_kasms', body, null)).statusCode).toBe(401);
  });
});

describe('a recorded session in get_user and get_kasms', () => {
  it("lists a live session with its user's name, its workspace's names, its agent and zone", async () => {
    const { kasm_id, user, imageId, agent } = await runningSession();
    const image = await h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } });
    const listed = {
      kasm_id,
      user_id: user.user_id,
      username: user.username,
      image_id: toWireId(imageId),
      image: { image_id: toWireId(imageId), name: image.name, friendly_name: image.friendlyName },
      operational_status: 'running',
      server_id: agent.agent_id,
      hostname: 'planner',
      zone_name: 'z',
    };
    const byId = await h.call('get_user', { target_user: { user_id: user.user_id } });
    const byName = await h.call('get_user', { target_user: { username: user.username } });
    for (const got of [byId, byName]) {
      expect(got.json().user.kasms).toEqual([expect.objectContaining(listed)]);
    }
    expect((await h.call('get_kasms')).json().kasms).toEqual([expect.objectContaining(listed)]);
    expect((await h.call('get_kasm_status', { kasm_id })).json()).toMatchObject({
      kasm_id,
      status: 'running',
      kasm: expect.objectContaining(listed),
    });
  });

  it('lists no session for a user whose session stopped', async () => {
    const { kasm_id, user } = await runningSession();
    await h.db.kasm.update({ where: { id: toUuid(kasm_id) }, data: { status: 'destroyed' } });
    const got = await h.call('get_user', { target_user: { user_id: user.user_id } });
    expect(got.json().user.kasms).toEqual([]);
    expect((await h.call('get_kasms')).json().kasms).toEqual([]);
  });

  it('answers a destroyed session as Kasm does: 404 KASM_NOT_FOUND, not a status', async () => {
    const { kasm_id } = await runningSession();
    await h.db.kasm.update({ where: { id: toUuid(kasm_id) }, data: { status: 'destroyed' } });
    const res = await h.call('get_kasm_status', { kasm_id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'KASM_NOT_FOUND', error_message: expect.any(String) });
  });
});

describe('the session proxy without a session', () => {
  it('answers 404 for an unknown session id and 401 without a cookie', async () => {
    const unknown = await h.inject({ method: 'GET', url: '/kasm/not-an-id/' });
    expect(unknown.statusCode).toBe(404);
    const noCookie = await h.inject({ method: 'GET', url: `/kasm/${toWireId(randomUUID())}/` });
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('answers 404 for a connect token of an unknown session', async () => {
    const res = await h.inject({
      method: 'GET',
      url: `/kasm/${toWireId(randomUUID())}/?kasm_token=x`,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('acting as a user through their sessions', () => {
  /** A running session of a member of Administrators (who holds global_admin). */
  async function administratorsSession() {
    const session = await runningSession();
    await h.call('add_user_group', {
      target_user: { user_id: session.user.user_id },
      target_group: { group_id: ADMINISTRATORS },
    });
    return session;
  }

  it('refuses request_kasm for an administrator to a key holding only users.auth_session, and places nothing', async () => {
    const { user, imageId } = await allowedUser();
    await h.call('add_user_group', {
      target_user: { user_id: user.user_id },
      target_group: { group_id: ADMINISTRATORS },
    });
    const launcher = await h.issueKey(['users.auth_session']);
    const res = await h.call(
      'request_kasm',
      { user_id: user.user_id, image_id: imageId },
      launcher,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/permissions the caller lacks: global_admin/);
    expect(await h.db.kasm.count()).toBe(0);
  });

  it('mints no link into an administrator’s session for users.auth_session alone: kasm_url is null', async () => {
    const { kasm_id } = await administratorsSession();
    const key = await h.issueKey(['users.auth_session', 'sessions.view']);
    const res = await h.call('get_kasm_status', { kasm_id }, key);
    expect(res.statusCode).toBe(200);
    expect(res.json().kasm_url).toBeNull();
    expect((await h.call('get_kasm_status', { kasm_id })).json().kasm_url).toEqual(
      expect.stringContaining('kasm_token='),
    );
  });

  it('refuses exec_command_kasm in an administrator’s session to a key holding only sessions.modify', async () => {
    const { kasm_id } = await administratorsSession();
    const key = await h.issueKey(['sessions.modify']);
    const res = await h.call('exec_command_kasm', { kasm_id, exec_config: { cmd: 'id' } }, key);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/global_admin/);
  });

  it('launches nothing for a disabled or locked user: 403 USER_DISABLED / USER_LOCKED', async () => {
    const { user, imageId } = await allowedUser();
    for (const [field, code] of [
      ['disabled', 'USER_DISABLED'],
      ['locked', 'USER_LOCKED'],
    ] as const) {
      const target_user = { user_id: user.user_id, disabled: false, locked: false, [field]: true };
      expect((await h.call('update_user', { target_user })).statusCode).toBe(200);
      const res = await h.call('request_kasm', { user_id: user.user_id, image_id: imageId });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(code);
    }
    expect(await h.db.kasm.count()).toBe(0);
  });
});
