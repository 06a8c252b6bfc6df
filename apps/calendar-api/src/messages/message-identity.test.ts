import { messageIdentity } from './message-identity';

const message = { channel: 'C1', messageId: null, weekStart: '2025-03-03', text: '[Mon]: Intro' };

describe('messageIdentity', () => {
  it('keys a message with an id by that id', () => {
    const identity = messageIdentity({ ...message, messageId: '1740.0001' });
    expect(identity).toMatchObject({
      channel: 'C1',
      messageId: '1740.0001',
      messageKey: '1740.0001',
    });
    expect(identity.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keys a message without an id by the hash of channel, week and text', () => {
    const identity = messageIdentity(message);
    expect(identity.messageKey).toBe(`sha256:${identity.contentHash}`);
    expect(messageIdentity({ ...message }).messageKey).toBe(identity.messageKey);
  });

  it.each([
    ['channel', { channel: 'C2' }],
    ['week', { weekStart: '2025-03-10' }],
    ['text', { text: '[Mon]: Intro!' }],
  ])('hashes differently when the %s differs', (_part, change) => {
    expect(messageIdentity({ ...message, ...change }).contentHash).not.toBe(
      messageIdentity(message).contentHash,
    );
  });
});
