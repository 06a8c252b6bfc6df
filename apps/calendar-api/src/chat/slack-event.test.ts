import * as slack from '../../test/slack-payloads';
import { interpretSlackPayload, slackTsToDate } from './slack-event';

const TS = '1741000000.000100';

describe('interpretSlackPayload', () => {
  it('answers the challenge of url_verification', () => {
    expect(interpretSlackPayload(slack.urlVerification('3eZbrw1aBm'))).toEqual({
      kind: 'challenge',
      challenge: '3eZbrw1aBm',
    });
  });

  it('reads a posted message as its channel, ts and text', () => {
    const payload = slack.messagePosted('C123', TS, '[Mon]: Intro');
    expect(interpretSlackPayload(payload)).toEqual({
      kind: 'upsert',
      eventId: payload.event_id,
      channel: 'C123',
      ts: TS,
      text: '[Mon]: Intro',
      version: TS,
    });
  });

  it("reads message_changed as the original ts with the message's new text", () => {
    expect(interpretSlackPayload(slack.messageChanged('C123', TS, 'new', 'old', 90))).toMatchObject(
      {
        kind: 'upsert',
        channel: 'C123',
        ts: TS,
        text: 'new',
        version: '1741000090.000200',
      },
    );
  });

  it('takes the version of a change without edited.ts (a link unfurled) from the message ts', () => {
    const payload = slack.messageChanged('C123', TS, 'new', 'old');
    delete (payload.event.message as { edited?: unknown }).edited;
    expect(interpretSlackPayload(payload)).toMatchObject({ kind: 'upsert', version: TS });
  });

  it('has no version for a ts that is not a Slack timestamp', () => {
    const payload = slack.messagePosted('C123', '1e9', 'x');
    expect(interpretSlackPayload(payload)).toMatchObject({ kind: 'upsert', version: undefined });
  });

  it('reads message_deleted as the deleted ts', () => {
    expect(interpretSlackPayload(slack.messageDeleted('C123', TS, 'old'))).toMatchObject({
      kind: 'delete',
      channel: 'C123',
      ts: TS,
    });
  });

  it.each([
    ['a bot_message', slack.botMessage('C123', TS, '[Mon]: Intro')],
    ["another app's post", slack.appMessage('C123', TS, '[Mon]: Intro')],
    ["this service's own app posting", slack.appMessage('C123', TS, '[Mon]: Intro', 'A0OWN')],
    [
      'an edit of a bot message',
      (() => {
        const p = slack.messageChanged('C123', TS, 'new', 'old');
        return { ...p, event: { ...p.event, message: { ...p.event.message, bot_id: 'B1' } } };
      })(),
    ],
    [
      'a channel join',
      (() => {
        const p = slack.messagePosted('C123', TS, '<@U1> has joined the channel');
        return { ...p, event: { ...p.event, subtype: 'channel_join' } };
      })(),
    ],
    [
      'another event type',
      { ...slack.messagePosted('C1', TS, 'x'), event: { type: 'app_mention' } },
    ],
    ['an event without event_id', { ...slack.messagePosted('C1', TS, 'x'), event_id: undefined }],
    [
      'a message without a channel',
      (() => {
        const p = slack.messagePosted('C1', TS, 'x');
        return { ...p, event: { ...p.event, channel: undefined } };
      })(),
    ],
    ['an array', []],
    ['null', null],
    ['an unknown envelope type', { type: 'app_rate_limited' }],
  ])('ignores %s', (_case, payload) => {
    expect(interpretSlackPayload(payload)).toMatchObject({ kind: 'ignore' });
  });

  it('keeps a thread broadcast, which people post', () => {
    const p = slack.messagePosted('C123', TS, '[Fri]: Quiz');
    expect(
      interpretSlackPayload({ ...p, event: { ...p.event, subtype: 'thread_broadcast' } }),
    ).toMatchObject({ kind: 'upsert' });
  });
});

describe('slackTsToDate', () => {
  it('reads the seconds of a ts', () => {
    expect(slackTsToDate(TS)?.toISOString()).toBe('2025-03-03T11:06:40.000Z');
  });

  it.each(['', 'abc', '-1'])('answers null for %j', (ts) => {
    expect(slackTsToDate(ts)).toBeNull();
  });
});
