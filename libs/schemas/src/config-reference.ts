import type { TObject } from '@sinclair/typebox';

interface SchemaNode {
  type?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  const?: unknown;
  anyOf?: SchemaNode[];
}

const code = (value: unknown) => `\`${String(value)}\``;
// A `|` would end the table's cell, and `<PORT>` would be read as an HTML tag.
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');

function typeOf(node: SchemaNode): string {
  if (node.anyOf) return node.anyOf.map((option) => code(option.const)).join(', ');
  if (node.type === 'integer' || node.type === 'number') {
    const { minimum: min, maximum: max } = node;
    if (min !== undefined && max !== undefined) return `${node.type} ${min}–${max}`;
    if (min !== undefined) return `${node.type} ≥ ${min}`;
    return node.type;
  }
  return node.type === 'string' ? 'text' : (node.type ?? 'any');
}

function defaultOf(node: SchemaNode, required: boolean): string {
  if (node.default === undefined) return required ? 'required' : '(unset)';
  return node.default === '' ? '(empty)' : code(node.default);
}

/**
 * A service's configuration reference in Markdown, from its TypeBox environment schema: every
 * variable with its type, default and meaning. Services commit it and a test compares the two,
 * so the reference cannot drift from the schema.
 */
export function configReference(service: string, schema: TObject, regenerate: string): string {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties as Record<string, SchemaNode>).map(
    ([name, node]) =>
      `| \`${name}\` | ${cell(typeOf(node))} | ${cell(defaultOf(node, required.has(name)))} | ${cell(node.description ?? '')} |`,
  );
  return [
    `# ${service} configuration`,
    '',
    `Environment variables ${service} reads, generated from its configuration schema`,
    `(\`apps/${service}/src/config.ts\`) by \`${regenerate}\`; a test fails when they differ.`,
    'The service checks them at start and stops with every problem listed.',
    '',
    '| variable | type | default | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
