import type { Page } from 'playwright-core';
import { VALID_PASSWORD } from '../factories';
import { screenshots, seriousViolations, type useBrowserPages } from './browser-fixture';

/** Opens a console page signed out, signs in on the page it shows, and lands back on it. */
export async function signInAt(
  pages: ReturnType<typeof useBrowserPages>,
  origin: string,
  path: string,
  username: string,
) {
  const { page } = pages;
  await page.goto(`${origin}${path}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(VALID_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}${path}`);
}

/** No serious axe violation, nothing wider than a phone, then the screenshots. */
export async function checkPage(page: Page, name: string) {
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = (await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  )) as number;
  if (overflow > 0) {
    const wide = await page.evaluate(
      "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 8).map((e) => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))",
    );
    throw new Error(`wider than a phone by ${overflow} px: ${JSON.stringify(wide)}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, name);
}

/** Waits for the console's notice after a form's redirect. */
export const notice = (page: Page, text: string) =>
  page.getByRole('status').getByText(text).waitFor();
