import { parseWebhookTargets } from './webhook-targets';

describe('parseWebhookTargets', () => {
  it('reads named Slack and Discord targets, the format from the name', () => {
    expect(
      parseWebhookTargets(
        ' slack = https://hooks.slack.com/services/T/B/x , discord=https://discord.com/api/webhooks/1/y,slack-staff=http://127.0.0.1:9/h ',
      ),
    ).toEqual([
      { name: 'slack', format: 'slack', url: 'https://hooks.slack.com/services/T/B/x' },
      { name: 'discord', format: 'discord', url: 'https://discord.com/api/webhooks/1/y' },
      { name: 'slack-staff', format: 'slack', url: 'http://127.0.0.1:9/h' },
    ]);
  });

  it('keeps an = inside the URL', () => {
    expect(parseWebhookTargets('discord=https://d.example/h?wait=true')[0].url).toBe(
      'https://d.example/h?wait=true',
    );
  });

  it('reads an empty setting as no target', () => {
    expect(parseWebhookTargets('')).toEqual([]);
    expect(parseWebhookTargets(' , ')).toEqual([]);
  });

  it.each([
    ['teams=https://x.example/h', /"teams" is not NAME=URL/],
    ['https://hooks.slack.com/services/T/B/secret', /an entry is not NAME=URL/],
    ['slack=ftp://x.example/h', /URL of slack is not an http\(s\) URL/],
    ['slack=not a url', /URL of slack/],
    ['slack=https://a.example/1,slack=https://b.example/2', /slack is listed twice/],
    ['Slack=https://a.example/1', /is not NAME=URL/],
  ])('rejects %j', (text, message) => {
    expect(() => parseWebhookTargets(text)).toThrow(message);
  });

  it('never repeats a secret-bearing URL in its message', () => {
    expect(() => parseWebhookTargets('https://d.example/api/webhooks/1/SECRET?wait=true')).toThrow(
      /^(?!.*SECRET)/,
    );
  });
});
