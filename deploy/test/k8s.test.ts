import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { render, validateObject, type K8sObject } from './support/kustomize';
import { ROOT, SERVICES } from './support/repo';

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string } };
  }[];
  envFrom?: { configMapRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
}

interface PodSpec {
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  initContainers?: Container[];
  containers: Container[];
}

interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

type Workload = K8sObject & {
  spec: {
    template: PodTemplate;
    selector?: { matchLabels: Record<string, string> };
    replicas?: number;
    suspend?: boolean;
  };
};

const OVERLAYS = { dev: 'workspace-platform-dev', prod: 'workspace-platform' } as const;

const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe.each(Object.entries(OVERLAYS))('deploy/k8s/overlays/%s', (overlay, namespace) => {
  const objects = render(overlay);
  const ofKind = <T = K8sObject>(kind: string) => objects.filter((o) => o.kind === kind) as T[];
  const workloads = objects.filter((o) => ['Deployment', 'Job'].includes(o.kind)) as Workload[];
  const containers = (w: Workload) => [
    ...(w.spec.template.spec.initContainers ?? []),
    ...w.spec.template.spec.containers,
  ];
  const deployment = (name: string) =>
    ofKind<Workload>('Deployment').find((d) => d.metadata.name === name) as Workload;

  it('renders every object valid against the Kubernetes schemas', async () => {
    expect(objects.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const object of objects) {
      await validateObject(object).catch((e: Error) =>
        problems.push(`${object.kind}/${object.metadata.name}: ${e.message}`),
      );
    }
    expect(problems).toEqual([]);
  });

  it('puts everything in its namespace, which enforces the restricted Pod Security level', () => {
    const [ns] = ofKind('Namespace');
    expect(ns.metadata).toMatchObject({
      name: namespace,
      labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
    });
    expect(
      objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace),
    ).toEqual([]);
  });

  it('gives every container requests and limits for CPU and memory', () => {
    for (const container of workloads.flatMap(containers)) {
      for (const kind of ['requests', 'limits'] as const) {
        expect([container.name, Object.keys(container.resources?.[kind] ?? {}).sort()]).toEqual([
          container.name,
          ['cpu', 'memory'],
        ]);
      }
    }
  });

  it('runs every container unprivileged: non-root, read-only root, no escalation, no capabilities, seccomp', () => {
    for (const workload of workloads) {
      const pod = workload.spec.template.spec;
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of containers(workload)) {
        const effective = { ...pod.securityContext, ...container.securityContext };
        expect([container.name, effective]).toEqual([
          container.name,
          expect.objectContaining({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          }),
        ]);
      }
    }
  });

  it('commits no Secret and reads every database URL from an operator-created Secret', () => {
    expect(ofKind('Secret')).toEqual([]);
    for (const workload of workloads) {
      const app = workload.metadata.labels?.['app.kubernetes.io/name'];
      for (const container of containers(workload)) {
        const url = container.env?.find((e) => e.name === 'DATABASE_URL');
        expect(url).toEqual({
          name: 'DATABASE_URL',
          valueFrom: { secretKeyRef: { name: `${app}-database`, key: 'url' } },
        });
        expect(container.env?.filter((e) => e.value !== undefined)).toEqual([]);
      }
    }
  });

  it('refers only to ConfigMaps it renders', () => {
    const names = ofKind('ConfigMap').map((c) => c.metadata.name);
    const refs = workloads
      .flatMap(containers)
      .flatMap((c) => c.envFrom ?? [])
      .map((e) => e.configMapRef?.name);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(names).toContain(ref);
  });

  it('selects every pod in a NetworkPolicy that denies by default', () => {
    const policies = ofKind<
      K8sObject & {
        spec: { podSelector: { matchLabels: Record<string, string> }; policyTypes: string[] };
      }
    >('NetworkPolicy');
    const defaultDeny = policies.filter(
      (p) => p.spec.policyTypes.includes('Ingress') && p.spec.policyTypes.includes('Egress'),
    );
    for (const workload of workloads) {
      const labels = workload.spec.template.metadata.labels;
      expect([
        workload.metadata.name,
        defaultDeny.some((p) => matches(p.spec.podSelector.matchLabels, labels)),
      ]).toEqual([workload.metadata.name, true]);
    }
  });

  describe.each(SERVICES)('$name', ({ name, port }) => {
    const image = (tag: string) => `workspace-platform/${name}:${tag}`;

    it('probes /health/live and /health/ready on the container port', () => {
      const [container] = deployment(name).spec.template.spec.containers;
      expect(container.ports).toEqual([
        { name: 'http', containerPort: port },
        ...(name === 'workspace-api' ? [{ name: 'sessions', containerPort: 3003 }] : []),
        { name: 'metrics', containerPort: 9464 },
      ]);
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    });

    it('serves /metrics on a port of its own that the pod annotations point Prometheus to', () => {
      const { template } = deployment(name).spec;
      const config = ofKind<K8sObject & { data: Record<string, string> }>('ConfigMap').find((c) =>
        c.metadata.name.startsWith(`${name}-config`),
      );
      expect(config?.data.METRICS_PORT).toBe('9464');
      expect(template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9464',
        'prometheus.io/path': '/metrics',
      });
    });

    it('migrates in an init container of the same image before the server starts', () => {
      const {
        initContainers = [],
        containers: [server],
      } = deployment(name).spec.template.spec;
      expect(initContainers.map((c) => c.args)).toEqual([
        ['node', `apps/${name}/dist/cli.js`, 'migrate'],
      ]);
      expect(initContainers[0].image).toBe(server.image);
      expect(server.image).toBe(image(overlay === 'dev' ? 'dev' : '0.1.0'));
      expect(server.args).toBeUndefined();
    });

    it('leaves the replica count to a HorizontalPodAutoscaler, and has a PodDisruptionBudget and a Service', () => {
      const workload = deployment(name);
      const podLabels = workload.spec.template.metadata.labels;
      expect(workload.spec.replicas).toBeUndefined();
      expect(matches(workload.spec.selector?.matchLabels ?? {}, podLabels)).toBe(true);

      const hpa = ofKind<
        K8sObject & { spec: { scaleTargetRef: object; minReplicas: number; maxReplicas: number } }
      >('HorizontalPodAutoscaler').find((h) => h.metadata.name === name);
      expect(hpa?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa?.spec.minReplicas).toBeLessThanOrEqual(hpa?.spec.maxReplicas ?? 0);

      const pdb = ofKind<
        K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } }
      >('PodDisruptionBudget').find((p) => p.metadata.name === name);
      expect(pdb && matches(pdb.spec.selector.matchLabels, podLabels)).toBe(true);

      const service = ofKind<
        K8sObject & { spec: { selector: Record<string, string>; ports: object[] } }
      >('Service').find((s) => s.metadata.name === name);
      expect(service && matches(service.spec.selector, podLabels)).toBe(true);
      expect(service?.spec.ports).toEqual([
        { name: 'http', port: 80, targetPort: 'http' },
        ...(name === 'workspace-api'
          ? [{ name: 'sessions', port: 3003, targetPort: 'sessions' }]
          : []),
      ]);
    });

    it('believes the TLS-terminating ingress (TRUST_PROXY), so cookies stay Secure and links https://', () => {
      const config = ofKind<K8sObject & { data: Record<string, string> }>('ConfigMap').find((c) =>
        c.metadata.name.startsWith(`${name}-config`),
      );
      expect(config?.data.TRUST_PROXY).toBe('uniquelocal');
    });
  });

  it('serves workspace-api’s sessions on a port of their own that the ingress may reach', () => {
    const config = ofKind<K8sObject & { data: Record<string, string> }>('ConfigMap').find((c) =>
      c.metadata.name.startsWith('workspace-api-config'),
    );
    expect(config?.data.SESSION_PORT).toBe('3003');
    const policies = ofKind<
      K8sObject & { spec: { ingress?: { ports?: { port: string | number }[] }[] } }
    >('NetworkPolicy');
    const ports = policies.flatMap((p) => (p.spec.ingress ?? []).flatMap((r) => r.ports ?? []));
    expect(ports.map((p) => p.port)).toContain('sessions');
  });

  it('runs a settings-apply Job on the settings ConfigMap', () => {
    const jobs = ofKind<Workload>('Job');
    expect(jobs.map((j) => [j.metadata.name, j.spec.suspend])).toEqual([
      ['workspace-api-settings-apply', undefined],
    ]);
    const { volumes } = jobs[0].spec.template.spec as unknown as {
      volumes: { configMap: { name: string } }[];
    };
    const volume = volumes[0];
    const configMap = ofKind<K8sObject & { data: Record<string, string> }>('ConfigMap').find(
      (c) => c.metadata.name === volume.configMap.name,
    );
    expect(configMap?.data['settings.yaml']).toContain('version: 1');
    expect(jobs[0].spec.template.spec.containers[0].args).toEqual([
      'node',
      'apps/workspace-api/dist/cli.js',
      'settings',
      'apply',
      '/config/settings.yaml',
    ]);
  });
});

describe('deploy/k8s sources', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? files(path.join(dir, e.name))
        : e.name.endsWith('.yaml')
          ? [path.join(dir, e.name)]
          : [],
    );

  it('contain no Secret and no secret generator', () => {
    const documents = files(path.join(ROOT, 'deploy/k8s')).flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => ({
        file,
        value: doc.toJS() as Record<string, unknown>,
      })),
    );
    expect(documents.length).toBeGreaterThan(10);
    const secrets = documents.filter(
      ({ value }) => value?.kind === 'Secret' || value?.secretGenerator,
    );
    expect(secrets.map((s) => s.file)).toEqual([]);
  });
});
