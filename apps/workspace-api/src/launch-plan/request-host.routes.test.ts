import { type Harness, useHarness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { createImage } from '../../test/image-factories';

const GB = 1_000_000_000;
const PROXY = '10.9.8.7';

let h: Harness;
let userId: string;
let imageId: string;
let zoneId: string;
useHarness((ready) => (h = ready), { TRUST_PROXY: PROXY, SESSION_URL_SCHEME: 'http' });
beforeEach(async () => {
  userId = (await h.call('create_user', { target_user: userInput({ username: 'ada' }) })).json()
    .user.user_id;
  const group = (await h.call('create_group', { target_group: { name: 'Devs' } })).json().group;
  await h.call('add_user_group', {
    target_user: { user_id: userId },
    target_group: { group_id: group.group_id },
  });
  imageId = await createImage(h.db, {
    name: 'desk:1',
    execConfig: { go: { cmd: 'open "$KASM_URL"' } },
  });
  await h.call('add_images_group', {
    target_group: { group_id: group.group_id },
    target_image: { image_id: imageId },
  });
  zoneId = (
    await h.call('create_zone', {
      target_zone: { name: 'here', proxy_hostname: '$request_host$', proxy_port: 0 },
    })
  ).json().zone.zone_id;
  await h.call('create_agent', {
    target_agent: { hostname: 'agent-1', zone_id: zoneId, cores: 8, memory: 16 * GB },
  });
});

/** get_launch_plan as it arrives with these headers, from `remoteAddress`. */
const planAt = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  h.inject({
    method: 'POST',
    url: '/api/public/get_launch_plan',
    headers,
    remoteAddress,
    payload: {
      ...h.admin,
      target_user: { user_id: userId },
      target_image: { image_id: imageId },
    },
  });
const urlOf = (res: { json(): { launch_plan: { session_url: string } } }) =>
  res.json().launch_plan.session_url;

describe('zones with proxy_hostname $request_host$', () => {
  it('are created, read and updated with Kasm’s literal', async () => {
    const zones = (await h.call('get_zones')).json().zones;
    expect(zones[0]).toMatchObject({ proxy_hostname: '$request_host$', proxy_port: 0 });
    const other = (
      await h.call('create_zone', { target_zone: { name: 'b', proxy_hostname: 'desk.example' } })
    ).json().zone;
    const res = await h.call('update_zone', {
      target_zone: { zone_id: other.zone_id, proxy_hostname: '$request_host$' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().zone.proxy_hostname).toBe('$request_host$');
  });

  it.each(['$request_host', 'request_host', '$REQUEST_HOST$x', 'a$request_host$', '$(reboot)'])(
    'refuses proxy_hostname %p with 400',
    async (proxy_hostname) => {
      const res = await h.call('create_zone', { target_zone: { name: 'x', proxy_hostname } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual([
        'target_zone.proxy_hostname',
      ]);
    },
  );

  it('builds the session URL on the host and port the request came to', async () => {
    const res = await planAt({ host: 'Box.Example:3001' });
    expect(res.statusCode).toBe(200);
    const url = urlOf(res);
    expect(url).toMatch(/^http:\/\/box\.example:3001\/kasm\/[0-9a-f]{32}\/$/);
    expect(res.json().launch_plan.exec_config.go.cmd).toBe(`open "${url}"`);
    expect(urlOf(await planAt({ host: '192.168.1.20:3001' }))).toMatch(
      /^http:\/\/192\.168\.1\.20:3001\/kasm\//,
    );
    expect(urlOf(await planAt({ host: '[::1]:3001' }))).toMatch(/^http:\/\/\[::1\]:3001\/kasm\//);
  });

  it('keeps the zone’s own proxy_port when it sets one', async () => {
    await h.call('update_zone', { target_zone: { zone_id: zoneId, proxy_port: 6443 } });
    expect(urlOf(await planAt({ host: 'box.example:3001' }))).toMatch(
      /^http:\/\/box\.example:6443\/kasm\//,
    );
  });

  it.each(['bad host', 'box.example:http', 'box:0', '$(reboot)', 'a@b', 'box.example:3001/x'])(
    'answers 400 REQUEST_HOST_INVALID for the Host %p',
    async (host) => {
      const res = await planAt({ host });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('REQUEST_HOST_INVALID');
    },
  );

  it('believes X-Forwarded-Host only from a TRUST_PROXY peer', async () => {
    const forwarded = { host: 'internal:3001', 'x-forwarded-host': 'desk.example.org' };
    expect(urlOf(await planAt(forwarded))).toMatch(/^http:\/\/internal:3001\/kasm\//);
    expect(urlOf(await planAt(forwarded, PROXY))).toMatch(/^http:\/\/desk\.example\.org\/kasm\//);
    const bad = await planAt({ host: 'internal', 'x-forwarded-host': 'evil host' }, PROXY);
    expect(bad.json().code).toBe('REQUEST_HOST_INVALID');
  });

  it('leaves zones with a host of their own alone', async () => {
    await h.call('update_zone', {
      target_zone: { zone_id: zoneId, proxy_hostname: 'desk.example.com', proxy_port: 443 },
    });
    expect(urlOf(await planAt({ host: 'box.example:3001' }))).toMatch(
      /^https:\/\/desk\.example\.com\/kasm\//,
    );
  });
});

describe('the web page’s policy', () => {
  const policyAt = async (host: string) =>
    String(
      (await h.inject({ method: 'GET', url: '/', headers: { host } })).headers[
        'content-security-policy'
      ],
    );

  it('lets its forms lead to each zone’s session origin, and to no other site', async () => {
    await h.call('create_zone', {
      target_zone: { name: 'eu', proxy_hostname: 'desk.example.com', proxy_port: 8443 },
    });
    await h.call('update_zone', { target_zone: { zone_id: zoneId, proxy_port: 6443 } });
    // The page reads zones at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const policy = await policyAt('box.example:3001');
    expect(policy).toContain(
      "form-action 'self' http://box.example:6443 http://desk.example.com:8443;",
    );
    expect(policy).not.toMatch(/form-action[^;]*\*/);
  });

  it('names no $request_host$ origin for a request whose host is not valid', async () => {
    // Only zones with a host of their own may remain (the other test's, if it ran first).
    expect(await policyAt('bad host')).toMatch(
      /form-action 'self'( http:\/\/desk\.example\.com:8443)?;/,
    );
  });
});
