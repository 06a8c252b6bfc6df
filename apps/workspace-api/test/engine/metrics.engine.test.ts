import { parseExposition, sampleSum } from '@platform/metrics';
import { toUuid } from '@platform/schemas';
import { TEST_WEB_IMAGE } from '@platform/testing';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(3 * LONG);

const TOKEN = 'metrics-token-for-the-engine-test';
let w: SessionWorld;
beforeAll(async () => {
  w = await createSessionWorld({ METRICS_TOKEN: TOKEN });
});
afterAll(() => closeWorld(w));

async function scrape() {
  const res = await w.h.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return parseExposition(res.body);
}

const PHASES = ['pull', 'create', 'start', 'ready'];

it('moves the session, launch, agent and request metrics through a launch and a destroy, and keeps the launch timeline', async () => {
  const before = await scrape();
  const running = { status: 'running', workspace: TEST_WEB_IMAGE };
  expect(sampleSum(before, 'workspace_sessions', running)).toBe(0);
  expect(sampleSum(before, 'workspace_agent_up', { agent: 'engine-1' })).toBe(1);
  expect(sampleSum(before, 'workspace_agent_capacity_cores', { agent: 'engine-1' })).toBe(64);
  expect(sampleSum(before, 'workspace_agent_used_cores', { agent: 'engine-1' })).toBe(0);
  expect(sampleSum(before, 'workspace_session_launches_total')).toBe(0);

  const user = await w.member('metered');
  const { kasm_id } = await w.request({ user_id: user.user_id });
  await w.waitForStatus(toUuid(kasm_id), 'running');

  const launched = await scrape();
  expect(sampleSum(launched, 'workspace_sessions', running)).toBe(1);
  expect(sampleSum(launched, 'workspace_agent_used_cores', { agent: 'engine-1' })).toBe(0.5);
  expect(sampleSum(launched, 'workspace_agent_used_memory_bytes', { agent: 'engine-1' })).toBe(
    256 * 1024 ** 2,
  );
  for (const phase of PHASES) {
    expect(sampleSum(launched, 'workspace_session_launch_phase_seconds_count', { phase })).toBe(1);
  }
  expect(sampleSum(launched, 'workspace_session_launches_total', { outcome: 'running' })).toBe(1);
  const requests = (route: string) =>
    sampleSum(launched, 'http_request_duration_seconds_count', {
      route,
      method: 'POST',
      status_code: '200',
    });
  expect(requests('/api/public/request_kasm')).toBe(1);

  const status = (await w.h.call('get_kasm_status', { kasm_id, user_id: user.user_id })).json();
  const timeline = status.launch_timeline as {
    phase: string;
    started_at: string;
    ended_at: string | null;
  }[];
  expect(timeline.map((entry) => entry.phase)).toEqual(PHASES);
  let previousEnd = 0;
  for (const entry of timeline) {
    const started = Date.parse(entry.started_at);
    const ended = Date.parse(entry.ended_at ?? '');
    expect(started).toBeGreaterThanOrEqual(previousEnd);
    expect(ended).toBeGreaterThanOrEqual(started);
    previousEnd = ended;
  }

  const destroyed = await w.h.call('destroy_kasm', { kasm_id, user_id: user.user_id });
  expect(destroyed.statusCode).toBe(200);
  const after = await scrape();
  expect(sampleSum(after, 'workspace_sessions', running)).toBe(0);
  expect(sampleSum(after, 'workspace_sessions')).toBe(0);
  expect(sampleSum(after, 'workspace_agent_used_cores', { agent: 'engine-1' })).toBe(0);
  expect(
    sampleSum(after, 'http_request_duration_seconds_count', {
      route: '/api/public/destroy_kasm',
      status_code: '200',
    }),
  ).toBe(1);
});

it('keeps the timeline of a failed launch: the failing phase ends, and no phase duration is counted for it', async () => {
  const before = await scrape();
  const user = await w.member('unlucky');
  const imageId = await w.addImage({ execConfig: { go: { cmd: 'exit 3' } } });
  const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
  await w.waitForStatus(toUuid(kasm_id), 'error');

  const status = (await w.h.call('get_kasm_status', { kasm_id, user_id: user.user_id })).json();
  const timeline = status.launch_timeline as { phase: string; ended_at: string | null }[];
  expect(timeline.map((entry) => entry.phase)).toEqual(['pull', 'create', 'start']);
  expect(timeline.every((entry) => entry.ended_at !== null)).toBe(true);

  const after = await scrape();
  const count = (parsed: typeof before, phase: string) =>
    sampleSum(parsed, 'workspace_session_launch_phase_seconds_count', { phase });
  expect(count(after, 'start') - count(before, 'start')).toBe(0);
  expect(count(after, 'create') - count(before, 'create')).toBe(1);
  expect(
    sampleSum(after, 'workspace_session_launches_total', { outcome: 'error' }) -
      sampleSum(before, 'workspace_session_launches_total', { outcome: 'error' }),
  ).toBe(1);
});
