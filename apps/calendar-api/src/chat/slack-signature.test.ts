import { createHmac } from 'node:crypto';
import { slackSignature, slackSignatureProblem } from './slack-signature';

// The example of Slack's "Verifying requests from Slack" guide.
const GUIDE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

const secret = 'test-signing-secret';
const body = Buffer.from('{"type":"event_callback","event":{"text":"Quiz 🎉 \\"Friday\\""}}');
const now = 1_741_000_000;

const check = (overrides: Partial<Parameters<typeof slackSignatureProblem>[0]> = {}) => {
  const timestamp = String(now);
  return slackSignatureProblem({
    secret,
    timestamp,
    signature: slackSignature(secret, timestamp, body),
    rawBody: body,
    nowSeconds: now,
    ...overrides,
  });
};

describe('slackSignature', () => {
  it("reproduces the example of Slack's guide", () => {
    expect(slackSignature(GUIDE.secret, GUIDE.timestamp, Buffer.from(GUIDE.body))).toBe(
      GUIDE.signature,
    );
  });

  it('signs the raw bytes, multi-byte characters included', () => {
    const expected = createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from('v0:1:'), body]))
      .digest('hex');
    expect(slackSignature(secret, '1', body)).toBe(`v0=${expected}`);
  });
});

describe('slackSignatureProblem', () => {
  it('accepts a fresh request signed over its exact bytes', () => {
    expect(check()).toBeNull();
  });

  it('accepts a request signed up to 5 minutes ago', () => {
    expect(check({ nowSeconds: now + 300 })).toBeNull();
  });

  it.each([
    ['a request signed 6 minutes ago', { nowSeconds: now + 360 }, /more than 5 minutes/],
    ['a timestamp 6 minutes ahead', { nowSeconds: now - 360 }, /more than 5 minutes/],
    [
      'a body changed by one byte',
      { rawBody: Buffer.from(body.toString().replace('Quiz', 'Quix')) },
      /does not match/,
    ],
    ['another secret', { secret: 'other' }, /does not match/],
    ['a signature of another length', { signature: 'v0=abc' }, /does not match/],
    [
      'an upper-case signature',
      { signature: slackSignature(secret, String(now), body).toUpperCase() },
      /does not match/,
    ],
    ['a missing signature', { signature: undefined }, /are required/],
    ['a missing timestamp', { timestamp: undefined }, /are required/],
    ['a timestamp that is not a number', { timestamp: '1e9' }, /not a Unix time/],
    ['an unconfigured secret', { secret: '' }, /not configured/],
  ])('refuses %s', (_case, overrides, reason) => {
    expect(check(overrides)).toMatch(reason);
  });

  it('refuses a signature computed over a timestamp other than the header', () => {
    const signature = slackSignature(secret, String(now - 1), body);
    expect(check({ signature })).toMatch(/does not match/);
  });
});
