import { html, Html } from './html';

describe('the html template', () => {
  it('escapes every interpolated text, in elements and in quoted attributes', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  it('keeps another html result as it is, and renders lists of parts one after the other', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    // prettier-ignore
    const list = html`<ul>${items}</ul>`;
    expect(list).toBeInstanceOf(Html);
    expect(list.text).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
    expect(`${list}`).toBe(list.text);
  });

  it('leaves out null, undefined and false, and writes numbers and true as text', () => {
    expect(html`${null}|${undefined}|${false}|${0}|${2.5}|${true}`.text).toBe('|||0|2.5|true');
  });
});
