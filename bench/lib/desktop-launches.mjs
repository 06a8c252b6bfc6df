// @ts-check
// Launch click → the desktop's first frame in Chromium, against the engine's own create + start
// of the same container (the settings read from a session's container) and the same browser
// opening the container's page directly, until its first frame. Launches alternate, after an
// untimed one of each. Chromium here runs beside the engine, and a page loaded while the engine
// adds a container's interface breaks (ERR_NETWORK_CHANGED) and is reloaded: that hits the
// baseline's page, loaded the moment its server answers, more often than the platform's, so a
// second ratio leaves the reloads out (see bench/README.md).
import { median } from './load.mjs';
import { launchToFirstFrame, openDirectToFirstFrame, signIn } from './desktop-browser.mjs';
import {
  createAndStart,
  desktopPassword,
  removeContainer,
  sameContainer,
  sessionContainer,
  untilServing,
} from './desktop-engine.mjs';
import { USER } from './desktop-platform.mjs';

/**
 * What the bench started and has not ended yet, for its cleanup whatever happens.
 * @typedef {{ sessions: Set<string>, containers: Set<string> }} Started
 */

/**
 * @param {{ platform: import('./desktop-platform.mjs').Platform, engineHost: string,
 *   browser: import('playwright-core').Browser, friendlyName: string, launches: number,
 *   started: Started }} options
 */
export async function measureLaunches({
  platform,
  engineHost,
  browser,
  friendlyName,
  launches,
  started,
}) {
  const signedIn = await signIn(browser, platform.origin, USER.username, USER.password);

  const viaPlatform = async () => {
    const run = await launchToFirstFrame(signedIn, platform.origin, friendlyName);
    started.sessions.add(run.kasmId);
    const container = await sessionContainer(engineHost, run.kasmId);
    await run.tab.close();
    await platform.destroy(run.kasmId);
    started.sessions.delete(run.kasmId);
    return { ms: run.ms, recoveries: run.recoveries, events: run.events, container };
  };

  /** @param {ReturnType<typeof sameContainer>} spec */
  const viaEngine = async (spec) => {
    const from = performance.now();
    const { id, port } = await createAndStart(engineHost, spec);
    started.containers.add(id);
    await untilServing(port);
    const servingMs = performance.now() - from;
    const password = desktopPassword(spec.Env);
    const direct = await openDirectToFirstFrame(browser, port, password);
    const ms = direct.at - from;
    await direct.context.close();
    // The page once more, in a fresh context, now that no interface is being added: what opening
    // it costs without the browser's reloads (on a desktop that has drawn already, so it is the
    // lower bound of that part).
    const reopened = performance.now();
    const again = await openDirectToFirstFrame(browser, port, password);
    const pageMs = again.at - reopened;
    await again.context.close();
    await removeContainer(engineHost, id);
    started.containers.delete(id);
    return { ms, servingMs, pageMs, recoveries: direct.recoveries, events: direct.events };
  };

  const first = await viaPlatform();
  const spec = sameContainer(first.container);
  await viaEngine(spec);
  const platformRuns = [];
  const engineRuns = [];
  for (let i = 0; i < launches; i++) {
    if (i % 2 === 0) {
      engineRuns.push(await viaEngine(spec));
      platformRuns.push(await viaPlatform());
    } else {
      platformRuns.push(await viaPlatform());
      engineRuns.push(await viaEngine(spec));
    }
  }
  await signedIn.context.close();
  const platformMs = platformRuns.map((r) => r.ms);
  const engineMs = engineRuns.map((r) => r.ms);
  // Without the browser's reloads: the platform's launches that needed none, against the
  // engine's time until its container served plus the page opened on the running container.
  const platformClean = platformRuns.filter((r) => r.recoveries === 0).map((r) => r.ms);
  const engineComposedMs = engineRuns.map((r) => r.servingMs + r.pageMs);
  return {
    platformMs,
    engineMs,
    ratio: median(platformMs) / median(engineMs),
    engineServingMs: engineRuns.map((r) => r.servingMs),
    enginePageMs: engineRuns.map((r) => r.pageMs),
    platformCleanMs: platformClean,
    cleanRatio: platformClean.length ? median(platformClean) / median(engineComposedMs) : null,
    // How often each launch's tab was loaded again (ERR_NETWORK_CHANGED broke its page).
    recoveries: {
      platform: platformRuns.map((r) => r.recoveries),
      engine: engineRuns.map((r) => r.recoveries),
    },
    // What went wrong on the way in each launch (failed loads, closed WebSockets): usually nothing.
    events: {
      platform: platformRuns.map((r) => r.events),
      engine: engineRuns.map((r) => r.events),
    },
  };
}
