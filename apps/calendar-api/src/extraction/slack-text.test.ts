import { decodeSlackText } from './slack-text';

describe('decodeSlackText', () => {
  it.each([
    ['Q&amp;A session', 'Q&A session'],
    ['x &lt; y &gt; z', 'x < y > z'],
    ['see <https://example.com/slides|the slides>', 'see the slides'],
    ['see <https://example.com/slides>', 'see https://example.com/slides'],
    ['<https://a.example|A> and <https://b.example>', 'A and https://b.example'],
    ['<https://example.com?a=1&amp;b=2|Q&amp;A>', 'Q&A'],
    ['&lt;https://not.a.link&gt;', '<https://not.a.link>'],
    ['&amp;lt; stays literal', '&lt; stays literal'],
    ['plain text', 'plain text'],
  ])('decodes %j to %j', (input, output) => {
    expect(decodeSlackText(input)).toBe(output);
  });
});
