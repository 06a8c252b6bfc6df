import { sessionHost } from '../engines';
import type { LaunchPlan } from '../launch-plan';
import { endpointOf } from './container-plan';
import type { KasmWithOwners } from './kasm-owners';

/**
 * Where a session's container serves, the Basic credentials it wants (kasm_user:VNC_PW) and the
 * certificate it must present.
 */
export function containerEndpoint(
  row: Pick<KasmWithOwners, 'plan' | 'agent' | 'containerSecret' | 'tlsPinSha256'>,
  hostPort: number,
) {
  const plan = row.plan as unknown as LaunchPlan;
  const endpoint = endpointOf(plan.image.runConfig);
  const { port, scheme } =
    typeof endpoint === 'string' ? { port: 0, scheme: 'https' as const } : endpoint;
  return {
    port,
    scheme,
    host: sessionHost(row.agent),
    origin: `${scheme}://${sessionHost(row.agent)}:${hostPort}`,
    authorization: `Basic ${Buffer.from(`kasm_user:${row.containerSecret}`).toString('base64')}`,
    /** The certificate the container must present over TLS (SHA-256), null before it answered. */
    pin: row.tlsPinSha256,
  };
}
