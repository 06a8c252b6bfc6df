import * as rules from './support/cluster-rules';

describe('the cluster rules the manifests are held to', () => {
  it('finds misspelt and made-up fields at any depth, and accepts the free-form maps', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', labels: { 'app.kubernetes.io/name': 'api' }, owner: 'me' },
      spec: {
        replica: 2,
        selector: { matchLabels: { app: 'api' } },
        template: {
          metadata: { labels: { app: 'api' } },
          spec: {
            containers: [
              {
                name: 'api',
                image: 'api:1',
                ports: [{ name: 'http', containerPort: 3001, protocl: 'TCP' }],
                resources: { limits: { cpu: '1', memory: '1Gi' } },
              },
            ],
          },
        },
      },
    };
    expect(await rules.unknownFields(deployment)).toEqual([
      '/metadata/owner',
      '/spec/replica',
      '/spec/template/spec/containers/*/ports/*/protocl',
    ]);
  });

  it('rejects names Kubernetes rejects', () => {
    expect(rules.isDns1035Label('1api')).toBe(false);
    expect(rules.isDns1035Label('api-1')).toBe(true);
    expect(rules.isPortName('http-metrics-long')).toBe(false);
    expect(rules.isPortName('8080')).toBe(false);
    expect(rules.isPortName('http')).toBe(true);
    expect(rules.isEnvName('DATABASE URL')).toBe(false);
    expect(rules.isLabel('app.kubernetes.io/name', 'api')).toBe(true);
    expect(rules.isLabel('app/name', '-api')).toBe(false);
    expect(rules.isLabel('x', 'a'.repeat(64))).toBe(false);
  });

  it('selects pods by every label of a non-empty selector', () => {
    expect(rules.selects({ app: 'api', tier: 'web' }, { app: 'api', tier: 'web', x: 'y' })).toBe(
      true,
    );
    expect(rules.selects({ app: 'api', tier: 'web' }, { app: 'api' })).toBe(false);
    expect(rules.selects({}, { app: 'api' })).toBe(false);
  });
});
