import { expectFieldErrors, type Harness, useHarness } from '../../test/harness';

const UNKNOWN = '11111111111111111111111111111111';

let h: Harness;
useHarness((ready) => (h = ready));

const createZone = async (zone: Record<string, unknown> = {}) =>
  (
    await h.call('create_zone', {
      target_zone: { name: 'default', proxy_hostname: 'desk.example.com', ...zone },
    })
  ).json().zone;

describe('create_zone', () => {
  it('creates a zone with proxy_path "/" and proxy_port 443 unless told otherwise', async () => {
    const res = await h.call('create_zone', {
      target_zone: { name: '  Main ', proxy_hostname: 'Desk.Example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().zone).toEqual({
      zone_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'Main',
      proxy_hostname: 'desk.example.com',
      proxy_path: '/',
      proxy_port: 443,
      agent_count: 0,
      created: expect.any(String),
      updated: expect.any(String),
    });
  });

  it('accepts proxy_port 0 (no port in session URLs) and 65535', async () => {
    expect((await createZone({ name: 'a', proxy_port: 0 })).proxy_port).toBe(0);
    expect(
      (await createZone({ name: 'b', proxy_port: 65535, proxy_path: '/desktop/' })).proxy_path,
    ).toBe('/desktop/');
  });

  it('answers 400 with every broken rule', async () => {
    const broken = {
      name: ' ',
      proxy_hostname: 'bad host',
      proxy_path: 'relative',
      proxy_port: 65536,
    };
    const res = await h.call('create_zone', { target_zone: broken });
    expectFieldErrors(
      res,
      Object.keys(broken).map((field) => `target_zone.${field}`),
    );
    for (const proxy_port of [-1, 1.5, '80']) {
      expect(
        (
          await h.call('create_zone', {
            target_zone: { name: 'z', proxy_hostname: 'h', proxy_port },
          })
        ).statusCode,
      ).toBe(400);
    }
  });

  it.each(['/../x', '/a/../x', '/./x', '/..', '/a//b', '//'])(
    'refuses proxy_path %s, which would climb out of the path or mean something else once normalised',
    async (proxy_path) => {
      const res = await h.call('create_zone', {
        target_zone: { name: 'z', proxy_hostname: 'h', proxy_path },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([
        { field: 'target_zone.proxy_path', message: expect.any(String) },
      ]);
    },
  );

  it('accepts dots inside a proxy_path segment', async () => {
    expect((await createZone({ name: 'w', proxy_path: '/.well-known/a..b/' })).proxy_path).toBe(
      '/.well-known/a..b/',
    );
  });

  it('answers 409 ZONE_NAME_TAKEN for a name in use', async () => {
    await createZone();
    const res = await h.call('create_zone', {
      target_zone: { name: 'default', proxy_hostname: 'other.example.com' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ZONE_NAME_TAKEN');
  });
});

describe('get_zones, update_zone, delete_zone', () => {
  it('lists zones by name with their agent counts', async () => {
    const b = await createZone({ name: 'b' });
    await createZone({ name: 'a' });
    await h.call('create_agent', {
      target_agent: { hostname: 'x', zone_id: b.zone_id, cores: 1, memory: 1 },
    });
    const zones = (await h.call('get_zones')).json().zones;
    expect(
      zones.map((z: { name: string; agent_count: number }) => [z.name, z.agent_count]),
    ).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('changes only the fields present', async () => {
    const zone = await createZone({ proxy_port: 8443 });
    const res = await h.call('update_zone', {
      target_zone: { zone_id: zone.zone_id, proxy_port: 0 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().zone).toMatchObject({
      name: 'default',
      proxy_hostname: 'desk.example.com',
      proxy_port: 0,
    });
  });

  it('answers 404 for an unknown zone, 400 for a malformed id, 409 for a rename onto a taken name', async () => {
    expect(
      (await h.call('update_zone', { target_zone: { zone_id: UNKNOWN, proxy_port: 1 } })).json()
        .code,
    ).toBe('ZONE_NOT_FOUND');
    expect((await h.call('update_zone', { target_zone: { zone_id: 'nope' } })).statusCode).toBe(
      400,
    );
    const zone = await createZone({ name: 'a' });
    await createZone({ name: 'b' });
    expect(
      (await h.call('update_zone', { target_zone: { zone_id: zone.zone_id, name: 'b' } })).json()
        .code,
    ).toBe('ZONE_NAME_TAKEN');
  });

  it('deletes an empty zone, and refuses one with agents with 409 ZONE_HAS_AGENTS', async () => {
    const zone = await createZone();
    const agent = (
      await h.call('create_agent', {
        target_agent: { hostname: 'x', zone_id: zone.zone_id, cores: 1, memory: 1 },
      })
    ).json().agent;
    const refused = await h.call('delete_zone', { target_zone: { zone_id: zone.zone_id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ZONE_HAS_AGENTS');
    await h.call('delete_agent', { target_agent: { agent_id: agent.agent_id } });
    const res = await h.call('delete_zone', { target_zone: { zone_id: zone.zone_id } });
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    expect(
      (await h.call('delete_zone', { target_zone: { zone_id: zone.zone_id } })).json().code,
    ).toBe('ZONE_NOT_FOUND');
  });
});

describe('zone permissions', () => {
  it('reads with settings.view and writes with settings.modify only', async () => {
    const zone = await createZone();
    const viewer = await h.issueKey(['settings.view']);
    expect((await h.call('get_zones', {}, viewer)).statusCode).toBe(200);
    const body = { target_zone: { name: 'x', proxy_hostname: 'h' } };
    for (const [op, payload] of [
      ['create_zone', body],
      ['update_zone', { target_zone: { zone_id: zone.zone_id, proxy_port: 1 } }],
      ['delete_zone', { target_zone: { zone_id: zone.zone_id } }],
    ] as const) {
      const res = await h.call(op, payload, viewer);
      expect([op, res.statusCode, res.json().code]).toEqual([op, 403, 'FORBIDDEN']);
    }
    const other = await h.issueKey(['images.view', 'images.modify']);
    expect((await h.call('get_zones', {}, other)).statusCode).toBe(403);
    expect(
      (await h.call('create_zone', body, await h.issueKey(['settings.modify'], { readOnly: true })))
        .statusCode,
    ).toBe(403);
    expect(
      (await h.call('create_zone', body, await h.issueKey(['settings.modify']))).statusCode,
    ).toBe(200);
  });
});
