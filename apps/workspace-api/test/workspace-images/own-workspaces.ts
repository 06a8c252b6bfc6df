import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import type { SessionWorld } from '../engine/session-fixture';
import { connectViewer, type RfbViewer } from './rfb-viewer';

/** A desktop's X server may still be starting when its session answers: generous, ends early. */
const RFB_WAIT_MS = 120_000;

/**
 * The world's app listening on loopback with its zone's sessions reached there, the service's own
 * registry added, and the workspaces `friendlyNames` installed from it and allowed to the
 * world's group. Returns the app's origin and the workspaces' image_id by friendly name.
 */
export async function installOwnWorkspaces(w: SessionWorld, friendlyNames: string[]) {
  const origin = await w.h.app.listen({ host: '127.0.0.1', port: 0 });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1', proxyPort: Number(new URL(origin).port) },
  });
  const added = await w.h.call('add_registry', { registry_url: `${origin}/registry/` });
  expect(added.statusCode).toBe(200);
  const imageIds: Record<string, string> = {};
  for (const name of friendlyNames) {
    const installed = await w.h.call('install_workspace', {
      registry_id: added.json().registry.registry_id,
      name,
    });
    expect(installed.statusCode).toBe(200);
    imageIds[name] = installed.json().image.image_id;
    const allowed = await w.h.call('add_images_group', {
      target_group: { group_id: w.groupId },
      target_image: { image_id: imageIds[name] },
    });
    expect(allowed.statusCode).toBe(200);
  }
  return { origin, imageIds };
}

/** The grant cookie a browser gets for following a session's connect link (kasm_url). */
export async function followConnectLink(origin: string, kasmUrl: string): Promise<string> {
  const url = new URL(kasmUrl);
  const res = await fetch(`${origin}${url.pathname}${url.search}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

/** A viewer on the session's stream through the proxy, tried until the desktop speaks RFB. */
export async function viewThroughProxy(
  origin: string,
  kasmId: string,
  cookie: string,
): Promise<RfbViewer> {
  return waitFor(
    () =>
      connectViewer(`${origin.replace('http', 'ws')}/kasm/${kasmId}/websockify`, {
        origin,
        cookie,
      }),
    RFB_WAIT_MS,
  );
}
