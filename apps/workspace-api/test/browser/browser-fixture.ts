import path from 'node:path';
import type { Page } from 'playwright-core';
import { takeScreenshots } from '@platform/testing/browser';

export {
  launchChromium,
  readyDespiteLostLoads,
  seriousViolations,
  useBrowserPages,
  watchPage,
} from '@platform/testing/browser';

/** Screenshots of every page at both widths; git ignores the folder. */
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../screenshots');
/** Launches wait on containers: generous, and every wait ends as soon as its thing happens. */
export const LONG = 60_000;

export const screenshots = (page: Page, name: string) =>
  takeScreenshots(page, SCREENSHOT_DIR, name);
