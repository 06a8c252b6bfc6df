import type Docker from 'dockerode';
import { SOCKET_HOP_LABEL, SOCKET_HOP_MOUNT } from '../domain';

/**
 * The hop folder's mount, only for an image that declares the hop (SOCKET_HOP_LABEL): any other
 * image, Kasm's among them, never sees the folder.
 */
export function hopMount(image: Docker.ImageInspectInfo, folder: string | undefined) {
  if (!folder || !image.Config?.Labels?.[SOCKET_HOP_LABEL]) return undefined;
  return { Type: 'bind' as const, Source: folder, Target: SOCKET_HOP_MOUNT };
}

/**
 * Starts the image's hop command in a started container that has the folder: as uid 0, which
 * owns the folder (0755) while the image's user does not, with the container's capabilities
 * (none) and no new privileges. The desktop's user can neither replace the socket nor signal
 * or trace its server. Detached: it lives as long as the container.
 */
export async function startHopServer(
  container: Docker.Container,
  inspected: Docker.ContainerInspectInfo,
): Promise<void> {
  const command = inspected.Config.Labels?.[SOCKET_HOP_LABEL];
  const mounted = inspected.Mounts.some((m) => m.Destination === SOCKET_HOP_MOUNT);
  if (!command || !mounted) return;
  const exec = await container.exec({ Cmd: ['/bin/sh', '-c', command], User: '0' });
  const answer = await exec.start({ Detach: true });
  // The engine answers at once, with an empty body: read, so that its connection closes.
  answer.resume();
}
