import { randomBytes } from 'node:crypto';
import net from 'node:net';
import bcrypt from 'bcrypt';
import { rawJsonPost, waitFor } from '@platform/testing';
import { userActions } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { signIn, webClient } from '../../test/web/web-client';
import { passwordQueue } from '../domain';

// The check that must keep the one worker busy while the test fills its queue is a wrong password
// for `slow`, whose hash is bcrypt cost 15 (a second or more). The worker runs at nice 0 here: at
// the default 19, beside CI's other test files on both cores, that one check took minutes. The
// checks queued behind it are random usernames, as a flood of sign-ins for no one sends them,
// compared against the decoy hash at the harness's cost 4: they prove the same queueing without
// each costing a slow hash of its own.
let h: Harness;
let port: number;
let slow: string;
beforeAll(async () => {
  h = await createHarness({
    PASSWORD_CHECKS_WAITING: '2',
    PASSWORD_CHECKS_PER_ADDRESS: '1',
    PASSWORD_WORKER_NICE: '0',
  });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.app.server.address() as net.AddressInfo).port;
  const user = await userActions(() => h).createUser();
  slow = user.username;
  const passwordHash = await bcrypt.hash(randomBytes(12).toString('hex'), 15);
  await h.db.user.update({ where: { username: slow }, data: { passwordHash } });
  // The decoy hash unknown users are compared against is made on first use.
  expect((await guess('192.0.2.1')).statusCode).toBe(401);
}, 120_000);
afterAll(() => h?.close());
jest.setTimeout(120_000);

const randomName = () => `nobody-${randomBytes(6).toString('hex')}`;
const guess = (remoteAddress: string, username = randomName()) =>
  h.inject({
    method: 'POST',
    url: '/api/public/authenticate',
    payload: { username, password: 'Wr0ng-password' },
    remoteAddress,
  });
const idle = () =>
  waitFor(async () => expect(passwordQueue()).toMatchObject({ waiting: 0, running: 0 }), 60_000);

/** A sign-in over its own connection from a loopback address of the test's choosing. */
const rawGuess = (localAddress: string, username = randomName()) =>
  rawJsonPost(port, localAddress, '/api/public/authenticate', {
    username,
    password: 'Wr0ng-password',
  });

describe('the one queue of password checks', () => {
  it('refuses a second check in flight from one address with 429, and a check past PASSWORD_CHECKS_WAITING with 503 and Retry-After', async () => {
    await idle();
    const running = guess('198.51.100.1', slow);
    await waitFor(async () => expect(passwordQueue().running).toBe(1), 60_000);
    const second = await guess('198.51.100.1');
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toMatch(/^\d+$/);
    const waiting = [guess('198.51.100.2'), guess('198.51.100.3')];
    await waitFor(async () => expect(passwordQueue().waiting).toBe(2), 60_000);
    const busy = await guess('198.51.100.4');
    expect(busy.statusCode).toBe(503);
    expect(busy.json()).toMatchObject({ code: 'PASSWORD_CHECKS_BUSY' });
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const checked = await Promise.all([running, ...waiting]);
    expect(checked.map((r) => r.statusCode)).toEqual([401, 401, 401]);
  });

  it('drops a waiting check whose client closed its connection, unrun, and frees its place', async () => {
    await idle();
    const first = rawGuess('127.0.0.2', slow);
    await waitFor(async () => expect(passwordQueue().running).toBe(1), 60_000);
    const gone = rawGuess('127.0.0.3');
    await waitFor(async () => expect(passwordQueue().waiting).toBe(1), 60_000);
    const dropped = passwordQueue().dropped;
    gone.socket.destroy();
    await waitFor(
      async () => expect(passwordQueue()).toMatchObject({ waiting: 0, dropped: dropped + 1 }),
      60_000,
    );
    expect(await first.response).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('shows the sign-in page again, with 503 and Retry-After, when the queue is full', async () => {
    await idle();
    const queued = [guess('198.51.100.11', slow)];
    await waitFor(async () => expect(passwordQueue().running).toBe(1), 60_000);
    queued.push(guess('198.51.100.12'), guess('198.51.100.13'));
    await waitFor(async () => expect(passwordQueue().waiting).toBe(2), 60_000);
    const page = await signIn(webClient(h), randomName(), 'Wr0ng-password');
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['retry-after']).toMatch(/^\d+$/);
    expect(page.body).toContain('Too many sign-ins are being checked');
    expect((await Promise.all(queued)).map((r) => r.statusCode)).toEqual([401, 401, 401]);
  });
});
