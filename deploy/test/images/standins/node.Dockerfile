# Stand-in for node:20-bookworm-slim when no registry can be reached: Debian bookworm (minbase,
# from Debian's packages) with this machine's node and npm, and the official image's `node` user.
# npm trusts what npm on this machine trusts (its `cafile`, when it has one; npm-ca.crt is empty
# otherwise), so the build's npm install reaches the registry the way npm does here.
FROM platform-test/standin-debian:bookworm
COPY slim/apt.conf.d/ /etc/apt/apt.conf.d/
COPY slim/dpkg.cfg.d/ /etc/dpkg/dpkg.cfg.d/
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY npmrc npm-ca.crt /usr/local/etc/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
CMD ["node"]
