import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/repo';

const { SERVICES } = require('../services.cjs') as {
  SERVICES: { name: string; nodeFlags: string[] }[];
};

/** The NODE_OPTIONS that the Dockerfile's stage for a service sets, if any. */
function imageNodeOptions(service: string): string | undefined {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const stage = dockerfile
    .split(/^FROM /m)
    .find((s) => s.startsWith(`runtime AS runtime-${service}\n`));
  if (!stage) throw new Error(`the Dockerfile has no stage runtime-${service}`);
  return /^ENV .*\bNODE_OPTIONS=(\S+)/m.exec(stage)?.[1];
}

// Each service runs with the same Node flags wherever it runs: npm start and the bench spawn it
// with its nodeFlags; its image (which Compose and Kubernetes run) sets them as NODE_OPTIONS.
describe.each(SERVICES)("$name's Node flags", ({ name, nodeFlags }) => {
  it("are the image's NODE_OPTIONS", () => {
    expect(imageNodeOptions(name)).toBe(nodeFlags.length > 0 ? nodeFlags.join(' ') : undefined);
  });

  it('are flags Node accepts in NODE_OPTIONS', () => {
    for (const flag of nodeFlags) {
      expect(process.allowedNodeEnvironmentFlags.has(flag.split('=')[0])).toBe(true);
    }
  });
});
