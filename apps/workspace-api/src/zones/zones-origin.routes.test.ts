import { type Harness, useHarness } from '../../test/harness';

let h: Harness;
useHarness((ready) => (h = ready), { SESSION_PORT: '3003', PORT: '3001' });

describe('zones on the console’s origin', () => {
  it('refuses create_zone with $request_host$ and proxy_port 0, saying why, and stores nothing', async () => {
    const res = await h.call('create_zone', {
      target_zone: { name: 'local', proxy_hostname: '$request_host$', proxy_port: 0 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'ZONE_ON_CONSOLE_ORIGIN',
      detail: expect.stringMatching(/console’s origin.*proxy_port 3003/),
    });
    expect((await h.call('get_zones')).json().zones).toEqual([]);
  });

  it('refuses update_zone onto the console’s port and keeps the zone as it was', async () => {
    const created = await h.call('create_zone', {
      target_zone: { name: 'local', proxy_hostname: '$request_host$', proxy_port: 3003 },
    });
    expect(created.statusCode).toBe(200);
    const { zone_id } = created.json().zone;
    const res = await h.call('update_zone', { target_zone: { zone_id, proxy_port: 3001 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('ZONE_ON_CONSOLE_ORIGIN');
    expect((await h.call('get_zones')).json().zones[0].proxy_port).toBe(3003);
  });
});
