# sxd in a container: the packed package, installed as a user installs it, so the entry point
# is the same `sxd` command (bin/sxd.js running the compiled dist/).
#   docker build -t sxd .
#   docker run --rm --network host -v "$PWD:/work" sxd test --config sxd-target.json
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
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/sxd.tgz && rm /tmp/sxd.tgz
WORKDIR /work
ENTRYPOINT ["sxd"]
CMD ["--help"]
