import {
  startOtlpReceiver,
  TEST_WEB_IMAGE,
  waitFor,
  type OtlpReceiver,
  type ReceivedSpan,
} from '@platform/testing';
import { toUuid } from '@platform/schemas';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(4 * LONG);

/** OTLP numbers span kinds from 1: SPAN_KIND_SERVER, SPAN_KIND_CLIENT. */
const SERVER = 2;
const CLIENT = 3;
const MS = 1_000_000n;
/** OTLP's STATUS_CODE_ERROR. */
const ERROR = 2;

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

const one = (spans: ReceivedSpan[], name: string, parent?: ReceivedSpan) => {
  const found = spans.filter(
    (s) => s.name === name && (!parent || s.parentSpanId === parent.spanId),
  );
  if (found.length !== 1) {
    const seen = spans.map((s) => `${s.name} <- ${s.parentSpanId}`).join('\n');
    throw new Error(
      `${found.length} spans named ${name}${parent ? ` under ${parent.name}` : ''}:\n${seen}`,
    );
  }
  return found[0];
};

/** The names of a span's children, in the order they began. */
const childNames = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans
    .filter((s) => s.parentSpanId === parent.spanId)
    .sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0))
    .map((s) => s.name);

/**
 * The spans of a session's launch trace, once its request and launch spans have come (the batch
 * is sent within seconds, OTEL_BSP_SCHEDULE_DELAY; each poll ends as soon as they are there).
 */
const traceOf = (kasmId: string) =>
  waitFor(async () => {
    const launch = receiver
      .spans()
      .find((s) => s.name === 'session launch' && s.attributes['workspace.session.id'] === kasmId);
    if (!launch) throw new Error(`no launch span of ${kasmId} yet`);
    const spans = receiver.spans().filter((s) => s.traceId === launch.traceId);
    one(spans, 'POST /api/public/request_kasm');
    return spans;
  }, LONG);

describe('a launch with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let w: SessionWorld;
  let trace: ReceivedSpan[];
  let request: ReceivedSpan;

  beforeAll(async () => {
    w = await createSessionWorld({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'workspace-api-under-test',
    });
    const user = await w.member('traced');
    const { kasm_id } = await w.request({ user_id: user.user_id });
    await w.waitForStatus(toUuid(kasm_id), 'running');
    trace = await traceOf(kasm_id);
    request = one(trace, 'POST /api/public/request_kasm');
  });
  afterAll(() => closeWorld(w));

  it('has the request as a server span of the service, the root of the trace', () => {
    expect(request).toMatchObject({
      service: 'workspace-api-under-test',
      kind: SERVER,
      parentSpanId: '',
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/api/public/request_kasm',
        'http.response.status_code': 200,
      },
    });
  });

  it('has the reservation and the launch under the request, and the phases in order under the launch', () => {
    one(trace, 'launch reserve', request);
    const launch = one(trace, 'session launch', request);
    expect(launch.attributes['workspace.agent.id']).toBe(toUuid(w.agentId));
    const phases = ['pull', 'create', 'start', 'ready'].map((p) =>
      one(trace, `launch ${p}`, launch),
    );
    for (const [before, after] of phases.slice(0, -1).map((p, i) => [p, phases[i + 1]])) {
      // A span's start is kept in whole milliseconds (Date.now()), its end finer.
      expect(after.startNs / MS).toBeGreaterThanOrEqual(before.endNs / MS);
    }
    expect(phases[0].attributes['container.image.name']).toBe(TEST_WEB_IMAGE);
    for (const span of phases) {
      expect(span.statusCode).not.toBe(ERROR);
      expect(span.endNs).toBeLessThanOrEqual(launch.endNs);
    }
  });

  it('has each engine call under its phase, and the Engine API requests under the engine calls', () => {
    const launch = one(trace, 'session launch', request);
    const [pull, create, start] = ['pull', 'create', 'start'].map((p) =>
      one(trace, `launch ${p}`, launch),
    );
    const ensureImage = one(trace, 'engine ensureImage', pull);
    expect(ensureImage.attributes).toMatchObject({ 'workspace.agent.hostname': 'engine-1' });
    const inspect = one(trace, 'docker GET /images/{name}/json', ensureImage);
    expect(inspect).toMatchObject({ kind: CLIENT, attributes: { 'http.request.method': 'GET' } });

    // The profile folder is made by a helper container first, then the session's is created and
    // given its files (the session's certificate, at least).
    const created = childNames(trace, one(trace, 'engine create', create));
    const made = created.lastIndexOf('docker POST /containers/create');
    expect(made).toBeGreaterThan(created.indexOf('docker DELETE /containers/{id}'));
    expect(created.slice(made + 1)).toEqual(['docker PUT /containers/{id}/archive']);
    const engineStart = one(trace, 'engine start', start);
    one(trace, 'docker POST /containers/{id}/start', engineStart);
    one(trace, 'docker GET /containers/{id}/json', engineStart);
  });

  it('marks a failed phase and the launch as errors, and shows the cleanup under the launch', async () => {
    const user = await w.member('traced-failure');
    const imageId = await w.addImage({ execConfig: { go: { cmd: 'exit 7' } } });
    const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
    await w.waitForStatus(toUuid(kasm_id), 'error');
    const failed = await traceOf(kasm_id);
    const launch = one(failed, 'session launch', one(failed, 'POST /api/public/request_kasm'));
    const start = one(failed, 'launch start', launch);
    expect([launch.statusCode, start.statusCode]).toEqual([ERROR, ERROR]);
    expect(failed.filter((s) => s.name === 'launch ready')).toEqual([]);
    const exec = one(failed, 'engine exec', start);
    expect(childNames(failed, exec)).toEqual([
      'docker POST /containers/{id}/exec',
      'docker POST /exec/{id}/start',
      'docker GET /exec/{id}/json',
    ]);
    one(failed, 'engine removeSession', launch);
  });
});

describe('a launch without an endpoint', () => {
  it('exports nothing, even with the SDK variables pointing at a receiver', async () => {
    const quiet = await startOtlpReceiver();
    const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    // Only the typed config turns tracing on; an SDK started regardless would send here.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = quiet.url;
    let w: SessionWorld | undefined;
    try {
      w = await createSessionWorld();
      const user = await w.member('untraced');
      const { kasm_id } = await w.request({ user_id: user.user_id });
      await w.waitForStatus(toUuid(kasm_id), 'running');
      expect((await w.h.call('destroy_kasm', { kasm_id })).statusCode).toBe(200);
    } finally {
      // Closing the app is when buffered spans would be sent.
      await closeWorld(w);
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
      await quiet.close();
    }
    expect(quiet.exports()).toBe(0);
  });
});
