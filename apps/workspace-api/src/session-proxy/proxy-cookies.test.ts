import { containerCookieHeader, scopeSetCookie, scopeSetCookies } from './proxy-cookies';

const ID = '0123456789abcdef0123456789abcdef';

describe('containerCookieHeader', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['kasm_grant=a.b', undefined],
    ['kasm_grant=a.b; ws_session=s; ws_form=f', undefined],
    ['theme=dark', 'theme=dark'],
    ['ws_session=s; theme=dark; ws_form=f; lang=en', 'theme=dark; lang=en'],
    ['  theme=dark ;kasm_grant=x;  ', 'theme=dark'],
    // Names are compared whole: a container cookie that merely starts like ours stays.
    ['ws_session_extra=1; kasm_grantee=2', 'ws_session_extra=1; kasm_grantee=2'],
    ['ws_session =spaced; a=1', 'a=1'],
  ])('keeps only the container’s cookies of %j', (header, expected) => {
    expect(containerCookieHeader(header)).toBe(expected);
  });
});

describe('scopeSetCookie', () => {
  it.each([
    ['kasm_grant=evil; Path=/', null],
    ['ws_session=evil', null],
    ['ws_form=evil; Path=/kasm/', null],
    ['=nameless', null],
    ['novalue', null],
    ['a=1', `a=1; Path=/kasm/${ID}/`],
    ['a=1; Path=/', `a=1; Path=/kasm/${ID}/`],
    ['a=1; path=/app/x; Secure', `a=1; Path=/kasm/${ID}/app/x; Secure`],
    ['a=1; Path=relative', `a=1; Path=/kasm/${ID}/`],
    ['a=1; Domain=example.test; Path=/', `a=1; Path=/kasm/${ID}/`],
    [
      'a=1; domain=.example.test; HttpOnly; SameSite=Strict',
      `a=1; Path=/kasm/${ID}/; HttpOnly; SameSite=Strict`,
    ],
    ['a=x=y; Max-Age=60', `a=x=y; Path=/kasm/${ID}/; Max-Age=60`],
  ])('scopes %j to the session', (value, expected) => {
    expect(scopeSetCookie(value, ID)).toBe(expected);
  });
});

describe('scopeSetCookies', () => {
  it('drops the header when nothing is left, and keeps a single value as a list', () => {
    expect(scopeSetCookies(undefined, ID)).toBeUndefined();
    expect(scopeSetCookies(['ws_session=x', 'kasm_grant=y'], ID)).toBeUndefined();
    expect(scopeSetCookies('a=1', ID)).toEqual([`a=1; Path=/kasm/${ID}/`]);
    expect(scopeSetCookies(['ws_form=x', 'b=2; Path=/b'], ID)).toEqual([`b=2; Path=/kasm/${ID}/b`]);
  });
});
