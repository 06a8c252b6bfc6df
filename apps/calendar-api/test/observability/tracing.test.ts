import { startOtlpReceiver, type OtlpReceiver } from '@platform/testing';
import { createHarness } from '../harness';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

it("sends a server span per request, named by its route, under the caller's span", async () => {
  const h = await createHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  try {
    const res = await h.request({
      method: 'POST',
      url: 'add_event',
      payload: { date: '2025-03-03', title: 'Traced' },
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
    });
    expect(res.statusCode).toBe(201);
  } finally {
    // Closing the app sends the spans its batch still holds.
    await h.close();
  }
  const spans = receiver.spans().filter((span) => span.traceId === TRACE_ID);
  expect(spans).toEqual([
    expect.objectContaining({
      service: 'calendar-api',
      name: 'POST /api/calendar/add_event',
      parentSpanId: CALLER_SPAN,
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/api/calendar/add_event',
        'http.response.status_code': 201,
      },
    }),
  ]);
});
