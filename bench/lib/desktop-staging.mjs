// @ts-check
// Staged launches of the Desktop workspace against cold launches of the same image in the same
// run: request_kasm → running through the API (a cold request carries an environment variable,
// which a staged container cannot take, so it launches; runs alternate), and Launch click → the
// desktop's first frame in Chromium (cold before the staging config exists, staged after). Each
// staged run waits for the pool to be full again first, as a user arriving at a quiet moment would.
import { percentile, median } from './load.mjs';
import { launchToFirstFrame, signIn } from './desktop-browser.mjs';
import { USER } from './desktop-platform.mjs';
import { sleep } from './processes.mjs';

/** Staged sessions kept: one to claim while the next is refilled. */
const POOL = 2;

/**
 * @param {{ platform: import('./desktop-platform.mjs').Platform,
 *   browser: import('playwright-core').Browser, friendlyName: string, apiRuns: number,
 *   pageRuns: number, started: import('./desktop-launches.mjs').Started,
 *   log: (line: string) => void }} options
 */
export async function measureStaging({
  platform,
  browser,
  friendlyName,
  apiRuns,
  pageRuns,
  started,
  log,
}) {
  const { agent } = platform;
  // Room for the pool beside a cold launch: the machine's 2 cores hold 2 desktops by reservation.
  await platform.call('update_agent', {
    target_agent: { agent_id: agent.agent_id, cores_override: 8 },
  });
  const signedIn = await signIn(browser, platform.origin, USER.username, USER.password);
  /** @type {string | undefined} */
  let configId;
  try {
    /** request_kasm until running (the answer itself for a staged one). @param {Record<string, unknown>} body */
    const viaApi = async (body) => {
      const from = performance.now();
      const answer = await platform.call('request_kasm', {
        user_id: platform.userId,
        image_id: platform.imageId,
        ...body,
      });
      started.sessions.add(answer.kasm_id);
      if (answer.status !== 'running') await platform.untilRunning(answer.kasm_id);
      const ms = performance.now() - from;
      await platform.destroy(answer.kasm_id);
      started.sessions.delete(answer.kasm_id);
      return { ms, staged: answer.status === 'running' };
    };
    const viaPage = async () => {
      const run = await launchToFirstFrame(signedIn, platform.origin, friendlyName);
      started.sessions.add(run.kasmId);
      await run.tab.close();
      await platform.destroy(run.kasmId);
      started.sessions.delete(run.kasmId);
      log(`  page launch ${JSON.stringify(run.phases)}`);
      return { ms: run.ms, recoveries: run.recoveries, phases: run.phases };
    };
    const poolFull = async () => {
      for (let waited = 0; waited < 180_000; waited += 100) {
        const { staging_configs: configs } = await platform.call('get_staging_configs');
        if (configs[0]?.num_staged === POOL) return;
        await sleep(100);
      }
      throw new Error(`The staging pool did not fill to ${POOL} in 180 s`);
    };

    await viaPage(); // untimed: the image's first start, the browser's first page
    const pageCold = [];
    for (let i = 0; i < pageRuns; i++) pageCold.push(await viaPage());

    const { staging_config: config } = await platform.call('create_staging_config', {
      target_staging_config: {
        zone_id: agent.zone_id,
        image_id: platform.imageId,
        num_sessions: POOL,
        expiration: 1,
      },
    });
    configId = config.staging_config_id;
    log(`Staging ${POOL} desktops; ${apiRuns} API launches each way, ${pageRuns} page launches`);
    const apiCold = [];
    const apiStaged = [];
    for (let i = 0; i < apiRuns; i++) {
      await poolFull();
      const cold = () => viaApi({ environment: { BENCH_LAUNCH: 'cold' } });
      if (i % 2 === 0) {
        apiCold.push(await cold());
        apiStaged.push(await viaApi({}));
      } else {
        apiStaged.push(await viaApi({}));
        apiCold.push(await cold());
      }
    }
    const pageStaged = [];
    for (let i = 0; i < pageRuns; i++) {
      await poolFull();
      pageStaged.push(await viaPage());
    }
    return {
      pool: POOL,
      apiColdMs: apiCold.map((r) => r.ms),
      apiStagedMs: apiStaged.map((r) => r.ms),
      // A staged request that found the pool empty launched: counted, never hidden.
      apiMisses: apiStaged.filter((r) => !r.staged).length,
      pageColdMs: pageCold.map((r) => r.ms),
      pageStagedMs: pageStaged.map((r) => r.ms),
      recoveries: {
        cold: pageCold.map((r) => r.recoveries),
        staged: pageStaged.map((r) => r.recoveries),
      },
      phases: { cold: pageCold.map((r) => r.phases), staged: pageStaged.map((r) => r.phases) },
    };
  } finally {
    await signedIn.context.close();
    if (configId) {
      await platform.call('delete_staging_config', {
        target_staging_config: { staging_config_id: configId },
      });
    }
    await platform.call('update_agent', {
      target_agent: { agent_id: agent.agent_id, cores_override: 0 },
    });
  }
}

/** p95 of a list of numbers. @param {number[]} values */
export const p95 = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    95,
  );

/** @param {Awaited<ReturnType<typeof measureStaging>>} s */
export function stagingRows(s) {
  const ms = (/** @type {number[]} */ v) =>
    `p95 ${p95(v).toFixed(0)} ms (median ${median(v).toFixed(0)})`;
  const sec = (/** @type {number[]} */ v) =>
    `${(median(v) / 1000).toFixed(2)} s (${(Math.min(...v) / 1000).toFixed(2)}–${(Math.max(...v) / 1000).toFixed(2)})`;
  // Tabs reloaded after Chromium's ERR_NETWORK_CHANGED (the engine adding a container's
  // interface on this machine, e.g. the pool's refill) are counted in the row, never hidden.
  const reloaded = s.recoveries.staged.filter((n) => n > 0).length;
  return [
    {
      scenario: `Staged request_kasm → running, ${s.apiStagedMs.length} runs (${s.apiMisses} found none)`,
      platform: ms(s.apiStagedMs),
      baseline: `${ms(s.apiColdMs)} cold`,
      result: `×${(p95(s.apiStagedMs) / p95(s.apiColdMs)).toFixed(3)}`,
      target: 'p95 ≤ 200 ms',
      pass: p95(s.apiStagedMs) <= 200 && s.apiMisses === 0,
    },
    {
      scenario: `Staged Launch click → first frame, median of ${s.pageStagedMs.length}`,
      platform: sec(s.pageStagedMs),
      baseline: `${sec(s.pageColdMs)} cold`,
      result: `×${(median(s.pageStagedMs) / median(s.pageColdMs)).toFixed(2)}; ${reloaded} reloaded`,
      target: '≤ 1 s',
      pass: median(s.pageStagedMs) <= 1000,
    },
  ];
}
