import { execFileSync } from 'node:child_process';
import {
  brokenMarkdownLinks,
  headingAnchors,
  markdownLinks,
  referenceProblem,
} from '@platform/testing';
import path from 'node:path';
import { ROOT } from './support/repo';

const trackedMarkdown = () =>
  execFileSync('git', ['ls-files', '*.md', '**/*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

describe('cross-references in the Markdown files', () => {
  it('resolves every relative link of every tracked Markdown file, anchors included', () => {
    const files = trackedMarkdown();
    expect(files).toContain('README.md');
    expect(files).toContain('docs/settings.md');
    expect(markdownLinks(path.join(ROOT, 'README.md')).length).toBeGreaterThan(0);
    expect(markdownLinks(path.join(ROOT, 'docs/settings.md')).length).toBeGreaterThan(0);
    expect(brokenMarkdownLinks(ROOT, files)).toEqual([]);
  });

  it("links every page under docs/ from the README's map", () => {
    const pages = trackedMarkdown().filter((file) => file.startsWith('docs/'));
    const linked = new Set(
      markdownLinks(path.join(ROOT, 'README.md')).map(({ target }) => target.split('#')[0]),
    );
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('tells a missing file, a missing heading and a good link apart, as GitHub slugs them', () => {
    const readme = path.join(ROOT, 'README.md');
    const page = path.join(ROOT, 'docs/groups-images-registry.md');
    expect(headingAnchors(page)).toContain('groups-allowed-workspaces-and-the-workspace-registry');
    expect(referenceProblem(readme, '#quick-start')).toBeNull();
    expect(referenceProblem(readme, 'bench/README.md')).toBeNull();
    expect(referenceProblem(page, '../README.md#quick-start')).toBeNull();
    expect(referenceProblem(page, 'sessions.md#what-a-launch-does')).toBeNull();
    expect(referenceProblem(readme, 'docs/readme-settings.md')).toBe(
      'no file docs/readme-settings.md',
    );
    expect(referenceProblem(readme, '#no-such-section')).toBe(
      'README.md has no heading #no-such-section',
    );
    expect(referenceProblem(page, 'sessions.md#no-such-section')).toBe(
      'sessions.md has no heading #no-such-section',
    );
    expect(referenceProblem(readme, 'https://example.com/x')).toBeNull();
  });
});
