// Checks that the hot paths' statements, as the services build them, use the indexes they need on
// the seeded database: each is EXPLAINed as a custom plan (what the first executions get) and as
// a generic one (what a prepared statement may settle on), and only nodes that ran count.
import path from 'node:path';
import pg from 'pg';
import { bundle } from './bundle.mjs';
import { BENCH_DIR } from './paths.mjs';

function nodesOf(plan, analyzed, out = []) {
  if (!analyzed || plan['Actual Loops'] > 0) {
    const index = plan['Index Name'] ? ` using ${plan['Index Name']}` : '';
    const relation = plan['Relation Name'] ? ` on ${plan['Relation Name']}` : '';
    out.push(
      `${plan['Node Type']}${plan['Scan Direction'] === 'Backward' ? ' Backward' : ''}${index}${relation}`,
    );
  }
  for (const child of plan.Plans ?? []) nodesOf(child, analyzed, out);
  return out;
}

export async function checkPlans(url, sample) {
  const { statements } = await bundle(path.join(BENCH_DIR, 'plans/statements.ts'), 'statements');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const problems = [];
  const plans = [];
  try {
    let n = 0;
    for (const s of statements(sample)) {
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query(`SET plan_cache_mode = ${mode}`);
        const explain = {
          name: `plan_${n++}`,
          text: `EXPLAIN (FORMAT JSON${s.analyze ? ', ANALYZE' : ''}) ${s.text}`,
          values: s.values,
        };
        const [
          {
            'QUERY PLAN': [top],
          },
        ] = (await client.query(explain)).rows;
        const nodes = nodesOf(top.Plan, s.analyze);
        const missing = s.uses.filter(
          // "Index Scan using x on t", or "Bitmap Index Scan using x" (the heap scan is its parent).
          (index) =>
            !nodes.some(
              (node) => node.includes(` using ${index} `) || node.endsWith(` using ${index}`),
            ),
        );
        const forbidden = nodes.filter((node) => s.never.includes(node));
        plans.push({ statement: s.name, mode, nodes, ms: top['Execution Time'] ?? null });
        if (missing.length > 0)
          problems.push(`${s.name} (${mode}): does not use ${missing.join(', ')}`);
        if (forbidden.length > 0) problems.push(`${s.name} (${mode}): ${forbidden.join(', ')}`);
      }
    }
  } finally {
    await client.end();
  }
  return { problems, plans, count: plans.length / 2 };
}
