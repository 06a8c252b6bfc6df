// The own registry's icons (`<registry>/1.1/icons/<image_src>`, where the platform fetches them).
const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">${body}</svg>\n`;

const SCREEN =
  '<rect x="6" y="10" width="52" height="36" rx="4" fill="#2e3440"/>' +
  '<rect x="10" y="14" width="44" height="28" fill="#5e81ac"/>' +
  '<rect x="24" y="48" width="16" height="4" fill="#4c566a"/><rect x="18" y="52" width="28" height="4" rx="2" fill="#4c566a"/>';

export const OWN_ICONS: Readonly<Record<string, string>> = {
  'desktop.svg': svg(`${SCREEN}<rect x="10" y="36" width="44" height="6" fill="#3b4252"/>`),
  'development.svg': svg(
    `${SCREEN}<path d="M24 22l-6 6 6 6M40 22l6 6-6 6M35 19l-6 18" stroke="#eceff4" stroke-width="3" fill="none" stroke-linecap="round"/>`,
  ),
  'browser.svg': svg(
    '<circle cx="32" cy="32" r="24" fill="#5e81ac"/><path d="M8 32h48M32 8c-8 8-8 40 0 48M32 8c8 8 8 40 0 48" stroke="#eceff4" stroke-width="3" fill="none"/>',
  ),
};
