import { captureLogs, createHarness, type Harness } from '../harness';
import { createTlsMaterial, type TlsMaterial, type TlsWorld } from '../tls-material';
import { plainEngineDoor, tlsEngineDoor, type EngineDoor } from './engine-doors';

// A real engine behind mutual TLS (as dockerd --tlsverify serves it): the service verifies the
// engine against the agent's CA and presents its own certificate; neither check can be skipped.
jest.setTimeout(60_000);

let h: Harness;
let tls: TlsMaterial;
let zoneId: string;
const logs = captureLogs();
const doors: EngineDoor[] = [];
beforeAll(async () => {
  [h, tls] = await Promise.all([
    createHarness({ LOG_LEVEL: 'warn' }, { logStream: logs.stream }),
    createTlsMaterial(),
  ]);
  zoneId = (
    await h.call('create_zone', { target_zone: { name: 'z', proxy_hostname: 'localhost' } })
  ).json().zone.zone_id;
});
afterAll(async () => {
  await Promise.all(doors.map((d) => d.close()));
  await h?.close();
  await tls?.remove();
});

async function opened(door: Promise<EngineDoor>) {
  const d = await door;
  doors.push(d);
  return d;
}

/** An agent at the door that trusts `ca` and presents `client`'s certificate. */
const overTls = (door: EngineDoor, ca: TlsWorld, client: TlsWorld) => ({
  docker_url: door.url,
  tls_ca_path: ca.ca,
  tls_cert_path: client.clientCert,
  tls_key_path: client.clientKey,
});

const create = (hostname: string, target: Record<string, unknown>) =>
  h.call('create_agent', { target_agent: { hostname, zone_id: zoneId, ...target } });

const logLine = (hostname: string) =>
  logs.lines().find((l) => l.agentHostname === hostname && l.msg === 'engine call failed');

describe('an engine over TLS', () => {
  it('is online when its certificate is signed by the agent’s CA and ours by the CA it trusts', async () => {
    const door = await opened(tlsEngineDoor(tls.trusted, tls.trusted.ca));
    const res = await create('tls-good', overTls(door, tls.trusted, tls.trusted));
    expect(res.statusCode).toBe(200);
    expect(res.json().agent).toMatchObject({ status: 'online', status_reason: '' });
    expect(res.json().agent.cores).toBeGreaterThan(0);
    expect(door.refused).toEqual([]);
  });

  it('is refused when its certificate was signed by another CA than the agent’s', async () => {
    const impostor = await opened(tlsEngineDoor(tls.other, tls.trusted.ca));
    const res = await create('tls-impostor', overTls(impostor, tls.trusted, tls.trusted));
    expect(res.statusCode).toBe(200);
    expect(res.json().agent).toMatchObject({
      status: 'offline',
      status_reason:
        "The agent's engine could not be reached over verified TLS (ENGINE_TLS_FAILED)",
      cores: 0,
    });
    expect(logLine('tls-impostor')).toMatchObject({
      failure: 'ENGINE_TLS_FAILED',
      engineDetail: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify/),
    });
    expect(res.body).not.toMatch(/UNABLE_TO_VERIFY/);
  });

  it('is not reached with a client certificate the engine does not trust', async () => {
    const door = await opened(tlsEngineDoor(tls.trusted, tls.trusted.ca));
    const res = await create('tls-stranger', overTls(door, tls.trusted, tls.other));
    expect(res.json().agent).toMatchObject({
      status: 'offline',
      status_reason:
        "The agent's engine could not be reached over verified TLS (ENGINE_TLS_FAILED)",
    });
    expect(door.refused.length).toBeGreaterThan(0);
    expect(logLine('tls-stranger')).toMatchObject({ failure: 'ENGINE_TLS_FAILED' });
  });

  it('is refused with 400 over plain TCP, where nothing verifies either side', async () => {
    const plain = await opened(plainEngineDoor());
    const res = await create('plain', { docker_url: plain.url });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual([
      'target_agent.docker_url',
    ]);
  });
});
