// Checks the query plans of what the services really send: both services run behind a capturing
// proxy (pg-capture.mjs), each hot request is sent once, and every statement it executed is
// EXPLAINed with its own parameters as a custom plan (what the first executions get) and as a
// generic one (what a prepared statement may settle on). Only nodes that ran count.
import pg from 'pg';
import { STATEMENTS, sameStatement } from '../baseline/statements.mjs';
import { NEVER, planRequests } from '../plans/requests.mjs';
import { startCapture } from './pg-capture.mjs';
import { sleep, startService } from './processes.mjs';

const PLANNED = /^[\s(]*(select|with|insert|update|delete)\b/i;
const WRITES = /^\s*(insert|update|delete)\b|\b(update|insert into|delete from)\s+"?\w+"?\./i;

/**
 * @typedef {import('../plans/requests.mjs').PlanRequest} PlanRequest
 * @typedef {import('../plans/requests.mjs').Answer} Answer
 * @typedef {import('./pg-capture.mjs').Executed} Executed
 */

/**
 * A node of EXPLAIN (FORMAT JSON)'s plan.
 * @typedef {{
 *   'Node Type': string,
 *   'Actual Loops'?: number,
 *   'Index Name'?: string,
 *   'Relation Name'?: string,
 *   'Scan Direction'?: string,
 *   Plans?: PlanNode[],
 * }} PlanNode
 */

/**
 * @param {PlanNode} plan
 * @param {boolean} analyzed
 * @param {string[]} [out]
 */
function nodesOf(plan, analyzed, out = []) {
  if (!analyzed || (plan['Actual Loops'] ?? 0) > 0) {
    const index = plan['Index Name'] ? ` using ${plan['Index Name']}` : '';
    const relation = plan['Relation Name'] ? ` on ${plan['Relation Name']}` : '';
    out.push(
      `${plan['Node Type']}${plan['Scan Direction'] === 'Backward' ? ' Backward' : ''}${index}${relation}`,
    );
  }
  for (const child of plan.Plans ?? []) nodesOf(child, analyzed, out);
  return out;
}

/**
 * @param {Record<string, { url: string, credentials?: object }>} services by PlanRequest app
 * @param {PlanRequest} request
 * @param {Answer | null} previous
 * @returns {Promise<Answer>}
 */
async function send(services, request, previous) {
  const service = services[request.app];
  const response = request.operation
    ? await fetch(`${service.url}/api/public/${request.operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...service.credentials, ...request.body(previous) }),
      })
    : await fetch(`${service.url}${request.path}`);
  const body = /** @type {Answer} */ (await response.json());
  if (!response.ok) throw new Error(`${request.name}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Sends each request through the proxy and returns the statements each one executed.
 * @param {PlanOptions} options
 * @param {PlanRequest[]} requests
 */
async function capture({ url, env, credentials, ports }, requests) {
  const proxy = await startCapture(url);
  const proxied = { ...env, DATABASE_URL: proxy.url };
  /** @type {import('./processes.mjs').Server[]} */
  const started = [];
  try {
    for (const [app, port] of Object.entries(ports)) {
      const server = await startService({
        name: `${app}-api-plans`,
        app: `${app}-api`,
        env: proxied,
        port,
      });
      started.push(server);
    }
    const [workspace, calendar] = started;
    const services = { workspace: { url: workspace.url, credentials }, calendar };
    // The API key is verified (and cached) once, and the workers' first rounds pass, before the
    // statements that count; a worker's statement sent meanwhile is checked with the request's.
    await sleep(1000);
    await send(services, requests[0], null);
    /** @type {Answer | null} */
    let previous = null;
    /** @type {{ request: PlanRequest, statements: Executed[] }[]} */
    const captured = [];
    for (const request of requests) {
      proxy.take();
      previous = await send(services, request, previous);
      captured.push({ request, statements: proxy.take().filter((s) => PLANNED.test(s.text)) });
    }
    return captured;
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await proxy.close();
  }
}

/**
 * @param {pg.Client} client
 * @param {Executed} statement
 * @param {string} mode plan_cache_mode
 * @param {number} n numbers the prepared statement
 */
async function explain(client, statement, mode, n) {
  const analyze = !WRITES.test(statement.text);
  await client.query(`SET plan_cache_mode = ${mode}`);
  const [
    {
      'QUERY PLAN': [top],
    },
  ] = (
    await client.query({
      name: `plan_${n}`,
      text: `EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${statement.text}`,
      values: statement.values,
    })
  ).rows;
  return { nodes: nodesOf(top.Plan, analyze), ms: top['Execution Time'] ?? null };
}

/**
 * @typedef {object} PlanOptions
 * @property {string} url the bench database
 * @property {NodeJS.ProcessEnv} env the services'
 * @property {{ api_key: string, api_key_secret: string }} credentials workspace-api's
 * @property {{ workspace: number, calendar: number }} ports to run the services on
 * @property {import('../plans/requests.mjs').PlanSample} sample of planRequests
 */

/** @param {PlanOptions} options */
export async function checkPlans(options) {
  const captured = await capture(options, planRequests(options.sample));
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const problems = [];
  const plans = [];
  let n = 0;
  try {
    // Writes are EXPLAINed without ANALYZE, inside a transaction rolled back at the end.
    await client.query('BEGIN');
    for (const { request, statements } of captured) {
      if (statements.length === 0) problems.push(`${request.name}: no statement captured`);
      const mirrored = /** @type {Partial<Record<string, string>>} */ (STATEMENTS)[request.name];
      if (mirrored && !statements.some((s) => sameStatement(s.text, mirrored)))
        problems.push(`${request.name}: the baseline's statement is not the one the service sent`);
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        /** @type {string[]} */
        const nodes = [];
        for (const statement of statements) {
          const plan = await explain(client, statement, mode, n++);
          plans.push({ request: request.name, mode, text: statement.text, ...plan });
          nodes.push(...plan.nodes);
        }
        const missing = request.uses.filter(
          // "Index Scan using x on t", or "Bitmap Index Scan using x" (the heap scan is its parent).
          (i) =>
            !nodes.some((node) => node.includes(` using ${i} `) || node.endsWith(` using ${i}`)),
        );
        const forbidden = nodes.filter((node) => NEVER.includes(node));
        if (missing.length > 0)
          problems.push(`${request.name} (${mode}): does not use ${missing.join(', ')}`);
        if (forbidden.length > 0)
          problems.push(`${request.name} (${mode}): ${forbidden.join(', ')}`);
      }
    }
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
  const statementCount = plans.length / 2;
  return { problems, plans, count: captured.length, statementCount };
}
