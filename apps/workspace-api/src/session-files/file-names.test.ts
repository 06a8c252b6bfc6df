import { attachment, checkFileName, splitName } from './file-names';

describe('checkFileName', () => {
  it.each([
    ['report.pdf'],
    ['..hidden but fine'],
    ['a..b'],
    ['.bashrc'],
    ['naïve – ünïcode 文件.txt'],
    ['x'.repeat(255)],
  ])('accepts %j', (name) => {
    expect(checkFileName(name)).toBe(name);
  });

  it.each([
    ['', 'is empty'],
    ['.', 'is . or ..'],
    ['..', 'is . or ..'],
    ['../etc/passwd', 'slash'],
    ['a/b', 'slash'],
    ['a\\b', 'slash'],
    ['/etc/passwd', 'slash'],
    ['line\nbreak', 'control'],
    ['nul\u0000byte', 'control'],
    ['bell\u0007', 'control'],
    ['del\u007f', 'control'],
    ['c1\u0085', 'control'],
    ['.partial', 'uploads under way'],
    ['x'.repeat(256), 'longer than 255 bytes'],
    ['é'.repeat(128), 'longer than 255 bytes'],
  ])('refuses %j with a 400 that says why', (name, why) => {
    expect(() => checkFileName(name)).toThrow(
      expect.objectContaining({
        statusCode: 400,
        code: 'FILE_NAME_INVALID',
        message: expect.stringContaining(why),
      }),
    );
  });
});

describe('splitName', () => {
  it.each([
    ['report.pdf', 'report', '.pdf'],
    ['archive.tar.gz', 'archive.tar', '.gz'],
    ['.bashrc', '.bashrc', ''],
    ['README', 'README', ''],
  ])('splits %j into stem and extension', (name, stem, extension) => {
    expect(splitName(name)).toEqual({ stem, extension });
  });
});

describe('attachment', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachment('a "b"%\\ é.txt')).toBe(
      `attachment; filename="a _b___ _.txt"; filename*=UTF-8''a%20%22b%22%25%5C%20%C3%A9.txt`,
    );
  });
});
