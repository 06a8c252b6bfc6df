import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import WebSocket from 'ws';
import { TEST_SHELL_IMAGE, TEST_WEB_IMAGE, testDockerOptions, waitFor } from '@platform/testing';

// Proves the harness: the engine of the run starts the offline test images, publishes their
// ports on 127.0.0.1, runs commands in them and stops them promptly.
const docker = new Docker(testDockerOptions());
const created: Docker.Container[] = [];

async function run(image: string, options: Docker.ContainerCreateOptions = {}) {
  const container = await docker.createContainer({ Image: image, ...options });
  created.push(container);
  await container.start();
  return container;
}

async function exec(container: Docker.Container, cmd: string[]) {
  const execution = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await execution.start({ hijack: true, stdin: false });
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  docker.modem.demuxStream(stream, stdout, new PassThrough());
  await new Promise((resolve) => stream.on('end', resolve));
  return {
    stdout: Buffer.concat(chunks).toString(),
    exitCode: (await execution.inspect()).ExitCode,
  };
}

function echoOverWebSocket(url: string, message: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => socket.send(message));
    socket.once('message', (data) => {
      socket.close();
      resolve(String(data));
    });
    socket.once('error', reject);
  });
}

afterAll(async () => {
  await Promise.all(created.map((c) => c.remove({ force: true }).catch(() => undefined)));
});

describe('test Docker engine', () => {
  it('serves the web image on a published 127.0.0.1 port, over HTTP and WebSocket, and runs exec', async () => {
    const container = await run(TEST_WEB_IMAGE, {
      ExposedPorts: { '8080/tcp': {} },
      HostConfig: { PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] } },
    });
    const info = await container.inspect();
    const port = info.NetworkSettings.Ports['8080/tcp'][0].HostPort;

    const page = await waitFor(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      return { status: response.status, body: await response.text() };
    }, 90_000);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Platform test workspace</title>');

    await expect(echoOverWebSocket(`ws://127.0.0.1:${port}/websockify`, 'ping 42')).resolves.toBe(
      'ping 42',
    );
    await expect(exec(container, ['cat', '/etc/hostname'])).resolves.toEqual({
      stdout: `${info.Config.Hostname}\n`,
      exitCode: 0,
    });

    // Exit code 0 is its own exit on SIGTERM; one that ignored it would be killed (137).
    await container.stop({ t: 30 });
    expect((await container.inspect()).State).toMatchObject({ Running: false, ExitCode: 0 });
    await container.remove();
    await expect(container.inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('stops the shell image on SIGTERM, before the grace period ends in a kill', async () => {
    const container = await run(TEST_SHELL_IMAGE);
    expect((await container.inspect()).State.Running).toBe(true);

    await container.stop({ t: 30 });
    expect((await container.inspect()).State).toMatchObject({ Running: false, ExitCode: 0 });
  });
});
