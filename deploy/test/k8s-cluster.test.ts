import {
  isDns1035Label,
  isDnsLabel,
  isDnsSubdomain,
  isEnvName,
  isLabel,
  isPortName,
  selects,
  unknownFields,
} from './support/cluster-rules';
import { render, type K8sObject } from './support/kustomize';

interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string }[];
  volumeMounts?: { name: string }[];
  livenessProbe?: { httpGet?: { port: string | number } };
  readinessProbe?: { httpGet?: { port: string | number } };
  startupProbe?: { httpGet?: { port: string | number } };
}

interface Pod {
  owner: string;
  labels: Record<string, string>;
  restartPolicy?: string;
  containers: Container[];
  volumes: { name: string }[];
}

type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const labelsOf = (selector?: { matchLabels?: Record<string, string> }) =>
  selector?.matchLabels ?? {};

describe.each(['dev', 'prod'])(
  'deploy/k8s/overlays/%s, by the rules an API server applies',
  (overlay) => {
    const objects = render(overlay);
    const specOf = (o: K8sObject) => (o as K8sObject & { spec: Spec }).spec;
    const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
    const pods: Pod[] = objects
      .filter((o) => ['Deployment', 'Job'].includes(o.kind))
      .map((o) => {
        const template = specOf(o).template as Spec;
        return {
          owner: `${o.kind}/${o.metadata.name}`,
          labels: template.metadata?.labels ?? {},
          restartPolicy: template.spec.restartPolicy,
          containers: [...(template.spec.initContainers ?? []), ...template.spec.containers],
          volumes: template.spec.volumes ?? [],
        };
      });
    const portsOf = (pod: Pod) => pod.containers.flatMap((c) => c.ports ?? []);
    const declares = (pod: Pod, port: string | number) =>
      portsOf(pod).some((p) =>
        typeof port === 'number' ? p.containerPort === port : p.name === port,
      );
    const podsSelectedBy = (selector: Record<string, string>) =>
      pods.filter((pod) => selects(selector, pod.labels));

    it('has no field a strict API server (kubectl --validate=strict) rejects as unknown', async () => {
      const problems: string[] = [];
      for (const object of objects) {
        for (const field of await unknownFields(object))
          problems.push(`${object.kind}/${object.metadata.name}: ${field}`);
      }
      expect(problems).toEqual([]);
    });

    it('names objects, containers, ports, env vars and labels in the formats the API server accepts', () => {
      const bad: string[] = [];
      for (const { kind, metadata } of objects) {
        const valid =
          kind === 'Service' ? isDns1035Label : kind === 'Namespace' ? isDnsLabel : isDnsSubdomain;
        if (!valid(metadata.name)) bad.push(`${kind} name ${metadata.name}`);
        for (const [key, value] of Object.entries(metadata.labels ?? {}))
          if (!isLabel(key, value)) bad.push(`label ${key}=${value}`);
      }
      for (const pod of pods) {
        for (const [key, value] of Object.entries(pod.labels))
          if (!isLabel(key, value)) bad.push(`${pod.owner} pod label ${key}=${value}`);
        const names = pod.containers.map((c) => c.name);
        if (new Set(names).size !== names.length) bad.push(`${pod.owner} repeats a container name`);
        for (const container of pod.containers) {
          if (!isDnsLabel(container.name)) bad.push(`${pod.owner} container ${container.name}`);
          if (!container.image || /\s/.test(container.image))
            bad.push(`${pod.owner} image "${container.image}"`);
          for (const { name } of container.env ?? [])
            if (!isEnvName(name)) bad.push(`${pod.owner} env ${name}`);
        }
        for (const { name } of portsOf(pod))
          if (name !== undefined && !isPortName(name)) bad.push(`${pod.owner} port ${name}`);
      }
      expect(bad).toEqual([]);
    });

    it('selects its own pods: Deployment selectors match their template, and every Service, PodDisruptionBudget and NetworkPolicy selects a pod', () => {
      for (const deployment of ofKind('Deployment')) {
        const { selector, template } = specOf(deployment);
        expect(selects(labelsOf(selector), template.metadata.labels)).toBe(true);
      }
      for (const service of ofKind('Service'))
        expect(podsSelectedBy(specOf(service).selector ?? {})).not.toEqual([]);
      for (const pdb of ofKind('PodDisruptionBudget'))
        expect(podsSelectedBy(labelsOf(specOf(pdb).selector))).not.toEqual([]);
      for (const policy of ofKind('NetworkPolicy')) {
        const selector = labelsOf(specOf(policy).podSelector);
        expect(Object.keys(selector).length === 0 || podsSelectedBy(selector).length > 0).toBe(
          true,
        );
      }
    });

    it('scales only Deployments it renders', () => {
      const deployments = ofKind('Deployment').map((d) => d.metadata.name);
      for (const hpa of ofKind('HorizontalPodAutoscaler')) {
        const { kind, name } = specOf(hpa).scaleTargetRef as { kind: string; name: string };
        expect(kind).toBe('Deployment');
        expect(deployments).toContain(name);
      }
    });

    it('refers only to ports its pods declare: Service targets, NetworkPolicy ingress ports and probes', () => {
      const missing: string[] = [];
      for (const service of ofKind('Service')) {
        const selected = podsSelectedBy(specOf(service).selector ?? {});
        for (const { targetPort, port } of specOf(service).ports as {
          targetPort?: string | number;
          port: number;
        }[]) {
          const target = targetPort ?? port;
          if (!selected.every((pod) => declares(pod, target)))
            missing.push(`Service/${service.metadata.name} → ${target}`);
        }
      }
      for (const policy of ofKind('NetworkPolicy')) {
        const selected = podsSelectedBy(labelsOf(specOf(policy).podSelector));
        for (const rule of (specOf(policy).ingress ?? []) as {
          ports?: { port?: string | number }[];
        }[]) {
          for (const { port } of rule.ports ?? []) {
            if (typeof port === 'string' && !selected.some((pod) => declares(pod, port)))
              missing.push(`NetworkPolicy/${policy.metadata.name} → ${port}`);
          }
        }
      }
      for (const pod of pods) {
        for (const container of pod.containers) {
          for (const probe of [
            container.livenessProbe,
            container.readinessProbe,
            container.startupProbe,
          ]) {
            const port = probe?.httpGet?.port;
            if (
              port !== undefined &&
              !(container.ports ?? []).some((p) => p.name === port || p.containerPort === port)
            ) {
              missing.push(`${pod.owner} ${container.name} probe → ${port}`);
            }
          }
        }
      }
      expect(missing).toEqual([]);
    });

    it('mounts only volumes its pods declare, and gives Jobs a restart policy a Job accepts', () => {
      for (const pod of pods) {
        const volumes = pod.volumes.map((v) => v.name);
        expect(new Set(volumes).size).toBe(volumes.length);
        for (const container of pod.containers) {
          for (const mount of container.volumeMounts ?? []) expect(volumes).toContain(mount.name);
        }
        if (pod.owner.startsWith('Job/'))
          expect(['Never', 'OnFailure']).toContain(pod.restartPolicy);
        else expect([undefined, 'Always']).toContain(pod.restartPolicy);
      }
    });
  },
);
