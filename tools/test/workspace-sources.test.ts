import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aptSources } from '../workspaces/debian.cjs';
import { STAGES } from '../workspaces/recipes.cjs';
import { stageHashes } from '../workspaces/workspace-images.cjs';
import { ROOT } from './support/repo';

const OWN_WORKSPACES = path.join(ROOT, 'apps/workspace-api/src/own-registry/own-workspaces.ts');
let etc: string;
beforeEach(() => {
  etc = mkdtempSync(path.join(tmpdir(), 'apt-etc-'));
  mkdirSync(path.join(etc, 'sources.list.d'));
});
afterEach(() => rmSync(etc, { recursive: true, force: true }));
const write = (file: string, text: string) => writeFileSync(path.join(etc, file), text);

describe('the Debian sources the workspace images are built from', () => {
  it('reads deb822 .sources stanzas: each URI with each Debian 12 suite, main only', () => {
    write(
      'sources.list.d/debian.sources',
      [
        'Types: deb\nURIs: http://mirror.test/debian\nSuites: bookworm bookworm-updates\nComponents: main',
        'Types: deb\nURIs: http://mirror.test/debian-security\nSuites: bookworm-security\nComponents: main contrib',
        'Types: deb-src\nURIs: http://mirror.test/debian\nSuites: bookworm\nComponents: main',
        'Types: deb\nURIs: http://mirror.test/debian\nSuites: trixie\nComponents: main',
        'Types: deb\nEnabled: no\nURIs: http://off.test/debian\nSuites: bookworm\nComponents: main',
        'Types: deb\nURIs: http://extra.test/x\nSuites: bookworm\nComponents: contrib',
      ].join('\n\n'),
    );
    expect(aptSources(etc)).toEqual({
      mirror: 'http://mirror.test/debian',
      lines: [
        'deb http://mirror.test/debian bookworm main',
        'deb http://mirror.test/debian bookworm-updates main',
        'deb http://mirror.test/debian-security bookworm-security main',
      ],
    });
  });

  it('reads classic sources.list lines, with options, and ignores comments and other files', () => {
    write(
      'sources.list',
      '# deb http://old.test/debian bookworm main\ndeb [arch=amd64 signed-by=/k.gpg] http://classic.test/debian bookworm main non-free\ndeb http://classic.test/debian bookworm-updates contrib\n',
    );
    write('sources.list.d/other.list.disabled', 'deb http://disabled.test/debian bookworm main\n');
    expect(aptSources(etc)).toEqual({
      mirror: 'http://classic.test/debian',
      lines: ['deb http://classic.test/debian bookworm main'],
    });
  });

  it('refuses to build without a Debian 12 source, saying so', () => {
    write('sources.list', 'deb http://mirror.test/debian trixie main\n');
    expect(() => aptSources(etc)).toThrow(/no "bookworm" source/);
  });
});

describe('the workspace image recipes', () => {
  it('start each stage from one built before it, and name every image in the own registry', () => {
    const names = STAGES.map((s) => s.name);
    STAGES.forEach((stage, i) => {
      if (stage.parent) expect(names.slice(0, i)).toContain(stage.parent);
    });
    // workspace-api's list (own-workspaces.ts) names its images with a template on its tag.
    const listed = readFileSync(OWN_WORKSPACES, 'utf8');
    const tag = /OWN_IMAGE_TAG = '([^']+)'/.exec(listed)?.[1];
    const images = [...listed.matchAll(/image: `([^$`]+):\$\{OWN_IMAGE_TAG\}`/g)].map(
      (m) => `${m[1]}:${tag}`,
    );
    expect(images).toHaveLength(3);
    expect(STAGES.filter((s) => s.image).map((s) => s.image)).toEqual(images);
  });

  it("hash each stage with its parent's hash: a change below reaches every image above", () => {
    const hashes = stageHashes();
    expect(new Set(hashes.values()).size).toBe(STAGES.length);
    for (const hash of hashes.values()) expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(stageHashes()).toEqual(hashes);
  });
});
