import { fileUrl, parseRegistrySource } from './registry-source';

const parse = (input: string, allowLocal = true) => parseRegistrySource(input, { allowLocal });

describe('parseRegistrySource', () => {
  it('normalises an http(s) URL so that trailing slashes, queries and fragments do not count', () => {
    const expected = { kind: 'http', url: 'https://registry.example.com/kasm/' };
    for (const input of [
      'https://registry.example.com/kasm',
      'https://registry.example.com/kasm/',
      'https://registry.example.com/kasm//',
      ' https://REGISTRY.example.com/kasm?ref=main#top ',
    ]) {
      expect(parse(input)).toEqual(expected);
    }
    expect(parse('http://127.0.0.1:8080')).toEqual({ kind: 'http', url: 'http://127.0.0.1:8080/' });
  });

  it('accepts an absolute directory path or file URL as a local registry', () => {
    expect(parse('/srv/registry/')).toEqual({
      kind: 'local',
      dir: '/srv/registry',
      url: 'file:///srv/registry/',
    });
    expect(parse('file:///srv/registry')).toEqual({
      kind: 'local',
      dir: '/srv/registry',
      url: 'file:///srv/registry/',
    });
  });

  it.each([
    ['ftp://example.com/registry', /not an http\(s\) URL or an absolute directory path/],
    ['registry.example.com', /not an http\(s\) URL/],
    ['relative/dir', /not an http\(s\) URL/],
    ['https://', /not a valid URL/],
    ['https://user:secret@example.com/', /credentials/],
  ])('refuses %s', (input, message) => {
    expect(parse(input)).toEqual({ problem: expect.stringMatching(message) });
  });

  it('refuses local paths when they are disabled', () => {
    expect(parse('/srv/registry', false)).toEqual({ problem: expect.stringMatching(/disabled/) });
    expect(parse('relative', false)).toEqual({ problem: '"relative" is not an http(s) URL' });
  });
});

describe('fileUrl', () => {
  it('resolves registry files below the registry URL', () => {
    const source = { kind: 'http', url: 'https://example.com/reg/' } as const;
    expect(fileUrl(source, 'versions.txt')).toBe('https://example.com/reg/versions.txt');
    expect(fileUrl(source, '1.0/list.json')).toBe('https://example.com/reg/1.0/list.json');
  });
});
