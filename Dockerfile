# sxd in a container: the packed package, installed as a user installs it, so the entry point
# is the same `sxd` command (bin/sxd.js running the compiled dist/). Run it as yourself, so the
# reports it writes in your folder are yours (docs/install.md):
#   docker build -t sxd .
#   docker run --rm --network host --user "$(id -u):$(id -g)" -v "$PWD:/work" sxd test --config sxd-target.json
FROM node:20-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
# The lock file links this package in place of a dependency's polyfill (package.json overrides).
COPY overrides ./overrides
# The sources are not here yet: prepare's build runs at npm pack, below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm pack --pack-destination /tmp && mv /tmp/sxd-*.tgz /tmp/sxd.tgz

FROM node:20-slim
COPY --from=pack /tmp/sxd.tgz /tmp/sxd.tgz
# npm's download cache (about 20 MB) goes with the layer that filled it. sxd writes only its
# reports (in the working folder) and temporary files, so any user may run it (--user); /work,
# where a run without a mounted folder writes its reports, takes every user's files, as /tmp does.
RUN npm install --global --omit=dev --no-audit --no-fund --cache /tmp/npm-cache /tmp/sxd.tgz \
 && rm -rf /tmp/npm-cache /tmp/sxd.tgz \
 && mkdir -m 1777 /work
WORKDIR /work
ENTRYPOINT ["sxd"]
CMD ["--help"]
