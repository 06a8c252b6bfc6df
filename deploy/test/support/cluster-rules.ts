import type { K8sObject } from './kustomize';

// What an API server rejects (or a workload never survives) that the OpenAPI schemas of
// kubernetes-models do not catch: unknown fields (kubectl --validate=strict), names and labels
// outside Kubernetes' formats, selectors that match no pod, ports and volumes nobody declares.

interface Model {
  validate(this: unknown): void;
}
type ModelClass = { prototype: Model };

/** Shows each object to its schema's validator and returns the fields it never read. */
export async function unknownFields(object: K8sObject): Promise<string[]> {
  const group = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<
    string,
    ModelClass | undefined
  >;
  const Model = group[object.kind];
  if (!Model) return [`no schema for ${object.apiVersion} ${object.kind}`];
  const read = new Set<string>();
  const track = (node: unknown, at: string): unknown =>
    node && typeof node === 'object'
      ? new Proxy(node, {
          get(target, key, receiver) {
            if (typeof key !== 'string' || !Object.hasOwn(target, key))
              return Reflect.get(target, key, receiver);
            const child = `${at}/${Array.isArray(target) ? '*' : key}`;
            read.add(child);
            return track((target as Record<string, unknown>)[key], child);
          },
        })
      : node;
  // The generated validators read every property their schema names, and no other.
  Model.prototype.validate.call(track(object, ''));
  const present = (node: unknown, at: string): string[] =>
    node && typeof node === 'object'
      ? Object.entries(node).flatMap(([key, value]) => {
          const child = `${at}/${Array.isArray(node) ? '*' : key}`;
          return [...(Array.isArray(node) ? [] : [child]), ...present(value, child)];
        })
      : [];
  return [...new Set(present(object, ''))].filter((field) => !read.has(field));
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

export const isDnsLabel = (name: string) => name.length <= 63 && DNS_LABEL.test(name);
/** RFC 1035 label: a Service's name must start with a letter. */
export const isDns1035Label = (name: string) => isDnsLabel(name) && /^[a-z]/.test(name);
export const isDnsSubdomain = (name: string) =>
  name.length <= 253 && name.split('.').every((part) => DNS_LABEL.test(part) && part.length <= 63);
/** IANA_SVC_NAME: what a named container port must be. */
export const isPortName = (name: string) =>
  name.length <= 15 &&
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name) &&
  /[a-z]/.test(name) &&
  !name.includes('--');
export const isEnvName = (name: string) => ENV_NAME.test(name);

export function isLabel(key: string, value: string): boolean {
  const [prefix, name] = key.includes('/') ? key.split('/', 2) : [undefined, key];
  return (
    (prefix === undefined || isDnsSubdomain(prefix)) &&
    name.length <= 63 &&
    LABEL_NAME.test(name) &&
    value.length <= 63 &&
    LABEL_VALUE.test(value)
  );
}

export const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([key, value]) => labels[key] === value);
