// Lints snippets with the repository's ESLint configuration, each as if it were the file it
// names: reads [{ file, code }] as JSON on stdin, writes each one's messages as JSON on stdout.
// A process of its own: ESLint loads its configuration with import(), which Jest's VM refuses.
import path from 'node:path';
import { ESLint } from 'eslint';

const root = process.cwd();
let input = '';
for await (const chunk of process.stdin) input += chunk;
// The project-boundary rule needs Nx's project graph and has nothing to say about these.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { rules: { '@nx/enforce-module-boundaries': 'off' } },
});
const results = [];
for (const { file, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  results.push(result.messages.map(({ ruleId, severity, line }) => ({ ruleId, severity, line })));
}
process.stdout.write(JSON.stringify(results));
