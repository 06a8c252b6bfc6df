/**
 * The workspace images this repository builds (`npm run workspaces:build`, recipes in
 * tools/workspaces/recipes.cjs) as workspace-api's own registry offers them. Only plain keys:
 * the platform's defaults give them port 6901, HTTPS and Basic auth as kasm_user.
 */
export interface OwnWorkspace {
  friendlyName: string;
  image: string;
  description: string;
  categories: string[];
  cores: number;
  /** MB */
  memory: number;
  /** MB, as the build measured it (rounded up) */
  sizeMb: number;
  icon: string;
}

export const OWN_IMAGE_TAG = '1.0';

export const OWN_WORKSPACES: readonly OwnWorkspace[] = [
  {
    friendlyName: 'Desktop',
    image: `workspace-platform/desktop:${OWN_IMAGE_TAG}`,
    description:
      'A light Debian 12 desktop: Openbox, a panel, a terminal (xterm), a file manager (PCManFM) and a text editor (Mousepad).',
    categories: ['Desktop'],
    cores: 1,
    memory: 1536,
    sizeMb: 510,
    icon: 'desktop.svg',
  },
  {
    friendlyName: 'Development',
    image: `workspace-platform/development:${OWN_IMAGE_TAG}`,
    description:
      'The Desktop plus git, a C toolchain (gcc, make), Python 3 and the Geany editor (and vim).',
    categories: ['Development', 'Desktop'],
    cores: 2,
    memory: 2048,
    sizeMb: 710,
    icon: 'development.svg',
  },
  {
    friendlyName: 'Firefox',
    image: `workspace-platform/browser:${OWN_IMAGE_TAG}`,
    description: 'Firefox ESR, full screen, on Debian 12.',
    categories: ['Browser'],
    cores: 1,
    memory: 2048,
    sizeMb: 810,
    icon: 'browser.svg',
  },
];
