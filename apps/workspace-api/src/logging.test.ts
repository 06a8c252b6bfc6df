import { PassThrough } from 'node:stream';
import { createHarness, type Harness } from '../test/harness';
import { userInput } from '../test/factories';

const PASSWORD = 'Sup3r-secret-pw!';
const NEW_PASSWORD = 'An0ther-secret-pw!';

let h: Harness;
let logs = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  h = await createHarness({ LOG_LEVEL: 'trace' }, { logStream: stream });
});
afterAll(() => h.close());

it('never writes passwords or API secrets to the logs', async () => {
  const { api_key, api_key_secret } = h.admin;
  const created = await h.call('create_user', {
    target_user: userInput({ username: 'logged', password: PASSWORD }),
  });
  const userId = created.json().user.user_id;
  await h.inject({
    method: 'POST',
    url: '/api/public/update_user',
    headers: { 'api-key': api_key, 'api-key-secret': api_key_secret },
    payload: { target_user: { user_id: userId, password: NEW_PASSWORD } },
  });
  const basic = Buffer.from(`${api_key}:${api_key_secret}`).toString('base64');
  await h.inject({
    method: 'POST',
    url: '/api/public/get_users',
    headers: { authorization: `Basic ${basic}` },
  });
  await h.call('authenticate', { username: 'logged', password: NEW_PASSWORD }, null);
  await h.call('authenticate', { username: 'logged', password: PASSWORD }, null);
  await h.call('create_user', { target_user: userInput({ password: 'weak-pw' }) });
  const issued = (await h.call('create_api_key', { name: 'x', permissions: ['users.view'] })).json()
    .api_key_secret;
  await h.call('get_users', {}, { api_key, api_key_secret: `${api_key_secret}-wrong` });
  const connectToken = 'connect-token-that-must-not-be-logged';
  await h.inject({
    method: 'GET',
    url: `/kasm/0123456789abcdef0123456789abcdef/?kasm_token=${connectToken}&x=1`,
  });

  expect(logs).toContain('incoming request');
  expect(logs.split('\n').length).toBeGreaterThan(15);
  expect(logs).toContain('kasm_token=%5Bredacted%5D&x=1');
  for (const secret of [
    PASSWORD,
    NEW_PASSWORD,
    'weak-pw',
    api_key_secret,
    basic,
    issued,
    connectToken,
  ]) {
    expect(logs).not.toContain(secret);
  }
});
