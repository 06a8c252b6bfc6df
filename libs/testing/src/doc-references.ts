import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: true });
type Token = ReturnType<MarkdownIt['parse']>[number];

export interface DocLink {
  target: string;
  /** 1-based line of the paragraph, heading or list item holding the link. */
  line: number;
}

function inlineTokens(file: string): { token: Token; line: number }[] {
  return markdown
    .parse(readFileSync(file, 'utf8'), {})
    .filter((t) => t.type === 'inline')
    .flatMap((t) => (t.children ?? []).map((token) => ({ token, line: (t.map?.[0] ?? 0) + 1 })));
}

/** Every link and image target of a Markdown file (code blocks and code spans hold none). */
export function markdownLinks(file: string): DocLink[] {
  return inlineTokens(file).flatMap(({ token, line }) => {
    const target = token.attrGet(token.type === 'image' ? 'src' : 'href');
    return (token.type === 'link_open' || token.type === 'image') && target
      ? [{ target, line }]
      : [];
  });
}

/** The anchors GitHub gives a Markdown file's headings, repeated titles numbered as it does. */
export function headingAnchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = markdown.parse(readFileSync(file, 'utf8'), {});
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const text = (tokens[i + 1].children ?? [])
      .filter((c) => c.type === 'text' || c.type === 'code_inline')
      .map((c) => c.content)
      .join('');
    anchors.add(slugger.slug(text));
  });
  return anchors;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/**
 * Why a relative reference (`docs/x.md`, `../README.md#section`, `#section`) does not resolve
 * from `fromDir`, or null when it does: the path must exist and a `#anchor` must be a heading of
 * the Markdown file it points into. Addresses with a scheme (https:, mailto:) are not checked.
 */
export function referenceProblem(fromFile: string, target: string): string | null {
  if (isExternal(target)) return null;
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file =
    pathPart === '' ? fromFile : path.resolve(path.dirname(fromFile), decodeURI(pathPart));
  if (!existsSync(file)) return `no file ${path.relative(path.dirname(fromFile), file)}`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return `#${anchor} points into ${path.basename(file)}, which is not Markdown`;
  return headingAnchors(file).has(decodeURIComponent(anchor))
    ? null
    : `${path.basename(file)} has no heading #${anchor}`;
}

/** `file:line target: problem` for each link of the Markdown files that does not resolve. */
export function brokenMarkdownLinks(root: string, files: readonly string[]): string[] {
  return files.flatMap((relative) => {
    const file = path.join(root, relative);
    return markdownLinks(file).flatMap(({ target, line }) => {
      const problem = referenceProblem(file, target);
      return problem ? [`${relative}:${line} ${target}: ${problem}`] : [];
    });
  });
}
