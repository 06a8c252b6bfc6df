import { testDockerHost, testDockerOptions } from './docker-engine';

// The image names are checked where they are used: the engine tests start containers from them.

describe('test engine helpers', () => {
  const saved = process.env.TEST_DOCKER_HOST;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_DOCKER_HOST;
    else process.env.TEST_DOCKER_HOST = saved;
  });

  it('says where the engine comes from when TEST_DOCKER_HOST is unset', () => {
    delete process.env.TEST_DOCKER_HOST;
    expect(() => testDockerHost()).toThrow(/TEST_DOCKER_HOST is not set.*Docker engine/);
  });

  it('turns a unix socket host into dockerode options pinned to API v1.41', () => {
    process.env.TEST_DOCKER_HOST = 'unix:///tmp/engine/docker.sock';
    expect(testDockerOptions()).toEqual({
      socketPath: '/tmp/engine/docker.sock',
      version: 'v1.41',
    });
  });

  it('turns a tcp host into dockerode options', () => {
    process.env.TEST_DOCKER_HOST = 'tcp://10.0.0.5:2375';
    expect(testDockerOptions()).toEqual({
      protocol: 'http',
      host: '10.0.0.5',
      port: 2375,
      version: 'v1.41',
    });
  });
});
