import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from './support/docker';
import { startTestEngine } from './support/engine';

// The private engine the image tests use must leave nothing on the machine: a second one is
// started here, given a container with a published port on a network of its own, and stopped.

const links = () => execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
const mounts = () => readFileSync('/proc/mounts', 'utf8');
const processesNaming = (...texts: string[]) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return texts.every((text) => args.some((arg) => arg.includes(text)));
      } catch {
        return false;
      }
    });

describe('the private engine', () => {
  it('leaves no daemon, container, network, bridge or mount behind when it stops', async () => {
    const outer = process.env.DOCKER_HOST;
    delete process.env.DOCKER_HOST;
    const engine = await startTestEngine().finally(() => (process.env.DOCKER_HOST = outer));
    if (!engine) throw new Error('no private engine can start here');
    const folder = path.dirname(engine.host.slice('unix://'.length));
    const docker = (...args: string[]) =>
      run('docker', args, { env: { DOCKER_HOST: engine.host } });
    const rootfs = mkdtempSync(path.join(tmpdir(), 'engine-cleanup-'));
    let network = '';
    let address = '';
    try {
      execFileSync('mkdir', ['-p', `${rootfs}/bin`]);
      execFileSync('cp', ['/bin/busybox', `${rootfs}/bin/busybox`]);
      await run('sh', ['-c', `tar -C ${rootfs} -c . | docker import - cleanup-test:1`], {
        env: { DOCKER_HOST: engine.host },
      });
      network = (await docker('network', 'create', 'cleanup-test')).trim();
      const container = await docker(
        'run',
        '-d',
        '--network',
        'cleanup-test',
        '-p',
        '127.0.0.1::8080',
        'cleanup-test:1',
        '/bin/busybox',
        'httpd',
        '-f',
        '-p',
        '8080',
      );
      address = (
        await docker(
          'inspect',
          '-f',
          '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
          container.trim(),
        )
      ).trim();
      expect(links()).toContain(`br-${network.slice(0, 12)}`);
      expect(processesNaming(folder)).not.toEqual([]);
      expect(processesNaming('docker-proxy', address)).not.toEqual([]);
    } finally {
      rmSync(rootfs, { recursive: true, force: true });
      await engine.stop();
    }
    expect(processesNaming(folder)).toEqual([]);
    expect(processesNaming('docker-proxy', address)).toEqual([]);
    expect(mounts()).not.toContain(folder);
    expect(links()).not.toContain(`br-${network.slice(0, 12)}`);
    expect(links()).not.toContain(`pteng${path.basename(folder).replace('platform-engine-', '')}`);
    expect(existsSync(folder)).toBe(false);
  });
});
