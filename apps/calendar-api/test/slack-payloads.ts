/** Events API payloads shaped as Slack sends them (https://api.slack.com/events/message). */

let sequence = 0;
const nextEventId = () => `Ev${(++sequence).toString().padStart(8, '0')}TEST`;

function envelope<E extends object>(event: E, eventId = nextEventId()) {
  return {
    token: 'verification-token-unused',
    team_id: 'T0001',
    context_team_id: 'T0001',
    api_app_id: 'A0OWN',
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: 1741000000,
    authorizations: [{ team_id: 'T0001', user_id: 'U0BOT', is_bot: true }],
    is_ext_shared_channel: false,
    event_context: '4-eyJldCI6Im1lc3NhZ2UiLCJ0aWQiOiJUMDAwMSJ9',
  };
}

export function urlVerification(challenge: string) {
  return { token: 'verification-token-unused', challenge, type: 'url_verification' };
}

export function messagePosted(channel: string, ts: string, text: string, eventId?: string) {
  return envelope(
    {
      type: 'message',
      channel,
      user: 'U0TEACHER',
      text,
      ts,
      event_ts: ts,
      channel_type: 'channel',
      client_msg_id: '4bd8c8d4-1f4e-4b93-9f70-12a5a0b1c2d3',
    },
    eventId,
  );
}

/** An edit made `secondsLater` seconds after the post (its `edited.ts`). */
export function messageChanged(
  channel: string,
  ts: string,
  text: string,
  previousText: string,
  secondsLater = 60,
) {
  const editTs = `${Number(ts.split('.')[0]) + secondsLater}.000200`;
  return envelope({
    type: 'message',
    subtype: 'message_changed',
    hidden: true,
    channel,
    ts: editTs,
    event_ts: editTs,
    message: {
      type: 'message',
      user: 'U0TEACHER',
      text,
      ts,
      edited: { user: 'U0TEACHER', ts: editTs },
    },
    previous_message: { type: 'message', user: 'U0TEACHER', text: previousText, ts },
    channel_type: 'channel',
  });
}

export function messageDeleted(channel: string, ts: string, previousText: string) {
  const deleteTs = `${Number(ts.split('.')[0]) + 120}.000300`;
  return envelope({
    type: 'message',
    subtype: 'message_deleted',
    hidden: true,
    channel,
    ts: deleteTs,
    event_ts: deleteTs,
    deleted_ts: ts,
    previous_message: { type: 'message', user: 'U0TEACHER', text: previousText, ts },
    channel_type: 'channel',
  });
}

/** A legacy integration's post (subtype bot_message), as incoming webhooks make them. */
export function botMessage(channel: string, ts: string, text: string) {
  return envelope({
    type: 'message',
    subtype: 'bot_message',
    channel,
    text,
    ts,
    event_ts: ts,
    bot_id: 'B0WEBHOOK',
    username: 'calendar',
    channel_type: 'channel',
  });
}

/** A post by an app's bot user: no subtype, but bot_id and app_id. */
export function appMessage(channel: string, ts: string, text: string, appId = 'A0OTHER') {
  return envelope({
    type: 'message',
    channel,
    user: 'U0BOT',
    bot_id: 'B0APP',
    app_id: appId,
    text,
    ts,
    event_ts: ts,
    channel_type: 'channel',
  });
}
