/**
 * Server-rendered HTML without a template engine, for both services' pages: `html` is a tagged
 * template whose interpolations are escaped unless they are already `Html` (another `html`
 * result). A page is then plain, type-checked TypeScript, and forgetting to escape is not
 * possible.
 */
import { escapeHtml } from './web-page';

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}
