import { isServiceWorkerScript, sessionResponseHeaders } from './proxy-headers';

const ID = '0123456789abcdef0123456789abcdef';

describe('sessionResponseHeaders', () => {
  it('drops Service-Worker-Allowed and Clear-Site-Data, whatever their case, and keeps the rest', () => {
    const headers = sessionResponseHeaders(
      {
        'content-type': 'text/javascript',
        'service-worker-allowed': '/',
        'Service-Worker-Allowed': '/',
        'clear-site-data': '"cookies", "storage"',
        'cache-control': 'no-store',
      },
      ID,
    );
    expect(headers).toEqual({ 'content-type': 'text/javascript', 'cache-control': 'no-store' });
  });

  it('keeps the container’s cookies inside the session’s path and drops the platform’s', () => {
    const headers = sessionResponseHeaders(
      { 'set-cookie': ['a=1; Path=/', 'ws_session=evil; Path=/'] },
      ID,
    );
    expect(headers).toEqual({ 'set-cookie': [`a=1; Path=/kasm/${ID}/`] });
  });
});

describe('isServiceWorkerScript', () => {
  it.each([
    [{ 'service-worker': 'script' }, true],
    [{ 'service-worker': 'Script' }, true],
    [{ 'service-worker': 'other' }, false],
    [{}, false],
  ])('says whether %j fetches a service worker’s script', (headers, expected) => {
    expect(isServiceWorkerScript(headers)).toBe(expected);
  });
});
