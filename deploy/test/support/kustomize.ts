import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './repo';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** `kubectl kustomize` of one overlay, as objects. */
export function render(overlay: string): K8sObject[] {
  const output = execFileSync(
    'kubectl',
    ['kustomize', path.join(ROOT, 'deploy/k8s/overlays', overlay)],
    {
      encoding: 'utf8',
    },
  );
  return parseAllDocuments(output).map((doc) => doc.toJS() as K8sObject);
}

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

/**
 * Validates an object against the Kubernetes OpenAPI schema of its kind (kubernetes-models):
 * types, formats, required fields. Throws with every problem; unknown kinds are an error too.
 */
export async function validateObject(object: K8sObject): Promise<void> {
  const group = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<
    string,
    ModelClass | undefined
  >;
  const Model = group[object.kind];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  new Model(object).validate();
}
