import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/repo';

const { SERVICE_NODE_FLAGS } = require('../services.cjs') as { SERVICE_NODE_FLAGS: string[] };

// The services run with the same Node flags wherever they run: npm start and the bench spawn
// them with SERVICE_NODE_FLAGS; the image's CMD (which Compose and Kubernetes keep) names them.
describe("a service's Node flags", () => {
  it('are the ones the Dockerfile starts the server with', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const cmd = dockerfile
      .split('\n')
      .filter((line) => line.startsWith('CMD '))
      .at(-1);
    expect(cmd).toBe(`CMD exec node ${SERVICE_NODE_FLAGS.join(' ')} apps/$APP/dist/server.js`);
  });

  it('are flags this Node accepts', () => {
    for (const flag of SERVICE_NODE_FLAGS) {
      expect(process.allowedNodeEnvironmentFlags.has(flag.split('=')[0])).toBe(true);
    }
  });
});
