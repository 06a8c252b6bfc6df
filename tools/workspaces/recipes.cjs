// @ts-check
// The workspace images this repository ships, as stages built from Debian 12 packages: each
// stage is its parent's rootfs plus packages, files (rootfs/<stage>) and setup commands. Stages
// with an `image` are imported into the engine; the others are cached rootfs only.

/**
 * @typedef {object} Stage
 * @property {string} name
 * @property {string | null} parent  the stage whose rootfs this one starts from (null: debootstrap)
 * @property {string[]} packages     installed with --no-install-recommends
 * @property {string[]} [extracted]  packages whose files are unpacked without their dependencies
 * @property {string} [setup]        shell run in the chroot as root after packages and files
 * @property {{ entry: string, out: string }[]} [bundles]
 *   ES modules of the rootfs bundled into one file each (esbuild, on the build machine) after setup
 * @property {string} [image]        the image's name and tag, for stages that are images
 * @property {string} [description]
 */

const IMAGE_PREFIX = 'workspace-platform/';
const IMAGE_TAG = '1.0';
const LIB = '/usr/lib/x86_64-linux-gnu';
const WEB = '/usr/local/share/workspace-web';

/** @type {Stage[]} */
const STAGES = [
  { name: 'base', parent: null, packages: [] },
  {
    name: 'vnc',
    parent: 'base',
    packages: [
      'tigervnc-standalone-server',
      'openbox',
      'websockify',
      'python3',
      'openssl',
      'fonts-dejavu-core',
      'x11-xserver-utils',
      // Sound: paplay, parec and pactl, and what PulseAudio's server needs (it is unpacked in
      // setup: see there). The platform records its null sink's monitor with parec.
      'pulseaudio-utils',
      'libltdl7',
      'libtdb1',
      'libsoxr0',
      'libspeexdsp1',
      'liborc-0.4-0',
      'libwrap0',
    ],
    // noVNC is static files; its package's dependency on nodejs (for its own tooling) is 70 MB.
    extracted: ['novnc'],
    setup: [
      'useradd --uid 1000 --user-group --create-home --home-dir /home/kasm-user --shell /bin/bash kasm-user',
      `for f in /usr/share/novnc/*; do ln -s "$f" ${WEB}/; done`,
      // The page at / is noVNC's own, its settings added in place by start.js and its modules
      // (dozens of files, each a request through the proxy) loaded as one bundle. start.js is
      // deferred: it runs before the bundle (scripts that wait for the parser run in document
      // order) without holding the parser while noVNC's images take the browser's connections.
      `sed -e 's|src="app/ui.js"|src="novnc.js"|' \\
        -e 's|<script src="app/error-handler.js">|<script defer src="start.js"></script>&|' \\
        /usr/share/novnc/vnc.html > ${WEB}/index.html`,
      `grep -q 'src="novnc.js"' ${WEB}/index.html && grep -q 'defer src="start.js"' ${WEB}/index.html`,
      // Mesa's software OpenGL (its LLVM, 140 MB), which Xvnc's libGL pulls in, goes: Xvnc runs
      // without GLX, and the images (Firefox's above all) stay well under 1 GB.
      `rm -rf ${LIB}/dri ${LIB}/libLLVM-15.so.1 ${LIB}/libz3.so.4`,
      // PulseAudio's server, its core library and modules only: the package's dependency on
      // ALSA's plugins brings libavcodec and its codecs (105 MB), none of which a null sink
      // uses. Its files are copied from the unpacked package (its /lib would replace the
      // rootfs's /lib link); the modules workspace-start loads are checked to link.
      'cd /tmp && apt-get download -qq pulseaudio && dpkg-deb -x pulseaudio_*.deb pa',
      'cp -a pa/usr/bin/pulseaudio /usr/bin/ && cp -a pa/usr/lib/pulse-* /usr/lib/',
      `cp -a pa${LIB}/pulseaudio/libpulsecore-*.so ${LIB}/pulseaudio/`,
      'rm -rf pa pulseaudio_*.deb',
      `if ldd /usr/bin/pulseaudio /usr/lib/pulse-*/modules/module-null-sink.so \\
        /usr/lib/pulse-*/modules/module-native-protocol-unix.so | grep 'not found'; then exit 1; fi`,
    ].join('\n'),
    bundles: [{ entry: '/usr/share/novnc/app/ui.js', out: `${WEB}/novnc.js` }],
  },
  {
    name: 'desktop',
    parent: 'vnc',
    // xclip: the clipboard from a shell (tests read and set it through exec).
    packages: ['tint2', 'xterm', 'pcmanfm', 'mousepad', 'adwaita-icon-theme', 'xclip'],
    image: `${IMAGE_PREFIX}desktop:${IMAGE_TAG}`,
    description: 'Openbox desktop with a panel, terminal, file manager and text editor',
  },
  {
    name: 'development',
    parent: 'desktop',
    packages: ['git', 'gcc', 'libc6-dev', 'make', 'geany', 'vim-tiny', 'less', 'openssh-client'],
    image: `${IMAGE_PREFIX}development:${IMAGE_TAG}`,
    description: 'The desktop plus git, gcc, make, Python 3 and the Geany editor',
  },
  {
    name: 'browser',
    parent: 'vnc',
    packages: ['firefox-esr'],
    image: `${IMAGE_PREFIX}browser:${IMAGE_TAG}`,
    description: 'Firefox ESR, full screen',
  },
];

/** What every image says about itself (docker import's --change lines). */
const IMAGE_CHANGES = [
  'USER 1000',
  'ENV HOME=/home/kasm-user',
  'ENV LANG=C.UTF-8',
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'WORKDIR /home/kasm-user',
  'EXPOSE 6901/tcp',
  'CMD ["/usr/local/bin/workspace-start"]',
];

// The socket hop (apps/workspace-api docs/sessions.md): the platform mounts its folder only into
// an image with this label and runs the command as uid 0, so the desktop's user (1000) can
// neither replace the socket nor its server. It serves the same page and stream as port 6901,
// behind the same Basic auth, without TLS.
const SOCKET_HOP_COMMAND = [
  'cd / && PYTHONPATH=/usr/local/lib/workspace exec python3 -m websockify_unix',
  '/run/workspace-platform/websockify.sock --web /usr/local/share/workspace-web --web-auth',
  '--auth-plugin vnc_password_auth.VncPasswordAuth --auth-source kasm_user 127.0.0.1:5901',
].join(' ');

/**
 * Image settings that no file of a stage depends on: applied when an image is imported, part of
 * its inputs label, but not of its rootfs tar's name, so a change re-imports without rebuilding.
 */
const IMAGE_LABELS = [`LABEL io.workspace-platform.socket-hop="${SOCKET_HOP_COMMAND}"`];

/** Left out of every stage: documentation, manuals, translations, package caches. */
const PRUNED = [
  'usr/share/doc',
  'usr/share/man',
  'usr/share/info',
  'usr/share/locale',
  'usr/share/lintian',
  'var/cache/apt',
  'var/lib/apt/lists',
  'var/log',
];

module.exports = { IMAGE_CHANGES, IMAGE_LABELS, IMAGE_PREFIX, PRUNED, STAGES };
