import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './support/repo';

interface Job {
  needs?: string;
  services?: Record<string, { image: string }>;
  env?: Record<string, string>;
  strategy?: { matrix: Record<string, string> };
  steps: { uses?: string; run?: string }[];
}

describe('.github/workflows/ci.yml', () => {
  const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
    jobs: Record<string, Job>;
  };
  const runs = (job: Job) => job.steps.flatMap((s) => (s.run ? [s.run] : []));

  it('checks formatting, then lints, type-checks, tests and builds what changed against PostgreSQL', () => {
    const { check } = workflow.jobs;
    expect(check.services?.postgres.image).toBe('postgres:15');
    expect(new URL(check.env?.TEST_DATABASE_URL as string).port).toBe('5432');
    const steps = runs(check);
    const order = [
      'npm ci',
      'npm run format:check',
      'npx nx affected -t lint typecheck test build',
    ].map((command) => steps.findIndex((s) => s.startsWith(command)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order).not.toContain(-1);
  });

  it('builds the image of every affected service after the checks, without pushing', () => {
    const { images } = workflow.jobs;
    expect(images.needs).toBe('check');
    expect(images.strategy?.matrix.app).toBe('${{ fromJSON(needs.check.outputs.apps) }}');
    expect(runs(images)).toEqual([
      expect.stringMatching(/^docker build --build-arg APP=\$\{\{ matrix\.app \}\} .* \.$/),
    ]);
    expect(JSON.stringify(workflow)).not.toMatch(/docker push|push: true/);
  });
});
