# syntax=docker/dockerfile:1
# The gateway's image. Its steps are the README's: `npm ci`, `npm run build`, `node dist/main.js`.
#   docker build -t model-gateway .
#   docker run -p 3000:3000 -v gateway-data:/data --stop-timeout 60 model-gateway

FROM node:20-bookworm-slim AS base
WORKDIR /app

# better-sqlite3 compiles its native module at install time (README, Quick start: prerequisites).
FROM base AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends g++ make python3 \
  && rm -rf /var/lib/apt/lists/*

# Every dependency (the console's Vite build and the TypeScript compiler included), then the build:
# the server to dist/, the web console to console/dist/.
FROM toolchain AS build
COPY package.json package-lock.json ./
COPY console/package.json console/
RUN npm ci
COPY . .
RUN npm run build

# The server's production dependencies alone, compiled on the image they will run on. The
# console's packages are left out (--workspaces=false): the server needs only its built files.
FROM toolchain AS production-dependencies
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --workspaces=false

# No compiler here: only what `node dist/main.js` reads. dist/ holds the migrations (compiled
# from src/store/migrations); console/dist/ is found from dist/http/console/ as ../../../console/dist;
# package.json is read for the version traces report.
FROM base AS runtime
ENV NODE_ENV=production \
  GATEWAY_DATA_DIR=/data
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist

# `model-gateway` (the package's `bin`, e.g. `model-gateway config export`) on the PATH, so
# `docker exec <container> model-gateway ...` runs it against the container's environment.
RUN node --input-type=module <<'EOF'
import { readFileSync, writeFileSync } from 'node:fs';
const { name, bin } = JSON.parse(readFileSync('package.json', 'utf8'));
const commands = typeof bin === 'string' ? { [name]: bin } : (bin ?? {});
for (const [command, file] of Object.entries(commands))
  writeFileSync(`/usr/local/bin/${command}`, `#!/bin/sh\nexec node /app/${file} "$@"\n`, { mode: 0o755 });
EOF

# The SQLite data folder, owned by the image's unprivileged `node` user (uid 1000) before it
# becomes a volume, so a fresh volume inherits that owner.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node

EXPOSE 3000
# /healthz answers 200 while the process serves, draining included. Slim has no curl: node asks.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (no shell in between), and drains.
CMD ["node", "dist/main.js"]
