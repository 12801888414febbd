# syntax=docker/dockerfile:1
# A small production image: build with dev dependencies, ship only the
# compiled gateway, the built web console, its production dependencies and
# the migrations, as a non-root user.
#
# The built-in simulator (the workspace package packages/simulator) stays
# out unless asked for: `docker build --build-arg WITH_SIMULATOR=1 .` ships
# it, so the image answers without provider keys (a demo). Without it, every
# provider and search backend the gateway serves needs its API key (or a
# GATEWAY_CONFIG naming only keyed ones); otherwise the start fails and says so.

FROM node:24-bookworm-slim AS build
ARG WITH_SIMULATOR=0
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/simulator/package.json ./packages/simulator/
# Exactly the lockfile's packages, and none of their install scripts: the
# gateway needs only one, the Prisma client's generation, run explicitly.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
COPY prisma ./prisma
RUN node scripts/prisma-generate.js
COPY tsconfig.json tsconfig.build.json ./
COPY packages/simulator/tsconfig.json ./packages/simulator/
COPY packages/simulator/src ./packages/simulator/src
COPY src ./src
COPY console ./console
# The build compiles the simulator package (the gateway's types need it),
# then src/ without its *.test.ts files, then Vite builds the console into
# console/dist; the benchmark (bench/) and the recorded test fixtures (test/)
# are never copied in.
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund
# npm keeps a workspace's link in a production prune, so the simulator is
# left out here by hand: its link goes, and packages-shipped/ holds its
# compiled files only when WITH_SIMULATOR=1.
RUN mkdir -p packages-shipped \
 && if [ "$WITH_SIMULATOR" = "1" ]; then \
      mkdir packages-shipped/simulator && cp -r packages/simulator/package.json packages/simulator/dist packages-shipped/simulator/; \
    else \
      rm node_modules/@model-gateway/simulator; \
    fi

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    GATEWAY_DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
# Empty unless WITH_SIMULATOR=1; node_modules/@model-gateway/simulator links here.
COPY --from=build --chown=node:node /app/packages-shipped ./packages
COPY --from=build --chown=node:node /app/dist ./dist
# The console's built page and assets only (served at /console), not its sources.
COPY --from=build --chown=node:node /app/console/dist ./console/dist
COPY --from=build --chown=node:node /app/prisma/migrations ./prisma/migrations
# No test fixtures: the built-in simulator, when shipped, answers with
# generated text; its recorded-response replay (a test knob) finds no
# recordings here.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (no shell), so in-flight requests finish and usage records flush.
# The Node flags of package.json's config.gateway_node_flags (see src/config/gateway-node-flags.ts).
CMD ["node", "--max-semi-space-size=8", "--liftoff-only", "dist/main.js", "serve"]
