import { toUuid } from '@platform/schemas';
import { docker, type SessionWorld } from '../engine/session-fixture';

/**
 * The X pointer and screen, read in the desktop through libX11 (python3 is in the image): "x y
 * buttons width height".
 */
export const POINTER = `python3 -c '
import ctypes as C
X=C.CDLL("libX11.so.6")
X.XOpenDisplay.restype=C.c_void_p
X.XDefaultRootWindow.argtypes=[C.c_void_p]; X.XDefaultRootWindow.restype=C.c_ulong
X.XDisplayWidth.argtypes=[C.c_void_p,C.c_int]; X.XDisplayHeight.argtypes=[C.c_void_p,C.c_int]
X.XQueryPointer.argtypes=[C.c_void_p,C.c_ulong]+[C.c_void_p]*7
d=X.XOpenDisplay(None); w=[C.c_ulong(),C.c_ulong()]; i=[C.c_int() for _ in range(4)]; m=C.c_uint()
X.XQueryPointer(d,X.XDefaultRootWindow(d),*[C.byref(v) for v in w+i+[m]])
print(i[0].value,i[1].value,m.value,X.XDisplayWidth(d,0),X.XDisplayHeight(d,0))'`;

/**
 * Runs `cmd` in the session's container on its display (:1), answering its output: trimmed, unless
 * the exact text matters (a clipboard's).
 */
export async function desktopExec(w: SessionWorld, kasmId: string, { trim = true } = {}) {
  const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
  const container = docker.getContainer(row.containerId ?? '');
  return async (cmd: string) => {
    const run = await container.exec({
      Cmd: ['/bin/sh', '-c', cmd],
      Env: ['DISPLAY=:1'],
      AttachStdout: true,
    });
    const stream = await run.start({ Detach: false });
    const chunks: Buffer[] = [];
    await new Promise((done) => stream.on('data', (c: Buffer) => chunks.push(c)).on('end', done));
    const all = Buffer.concat(chunks);
    const out: Buffer[] = [];
    for (let i = 0; i + 8 <= all.length; i += 8 + all.readUInt32BE(i + 4))
      out.push(all.subarray(i + 8, i + 8 + all.readUInt32BE(i + 4)));
    const text = Buffer.concat(out).toString('utf8');
    return trim ? text.trim() : text;
  };
}
