# syntax=docker/dockerfile:1
# A small production image: build with dev dependencies, ship only the
# compiled gateway, the built web console, its production dependencies and
# the migrations, as a non-root user.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Exactly the lockfile's packages, and none of their install scripts: the
# gateway needs only one, the Prisma client's generation, run explicitly.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
COPY prisma ./prisma
RUN node scripts/prisma-generate.js
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
# tsconfig.build.json compiles src/ without its *.test.ts files, then Vite
# builds the console into console/dist; the benchmark (bench/) and the
# recorded test fixtures (test/) are never copied in.
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    GATEWAY_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The console's built page and assets only (served at /console), not its sources.
COPY --from=build --chown=node:node /app/console/dist ./console/dist
COPY --from=build --chown=node:node /app/prisma/migrations ./prisma/migrations
# No test fixtures: the built-in simulator answers with generated text; its
# recorded-response replay (a test knob) finds no recordings here.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (no shell), so in-flight requests finish and usage records flush.
CMD ["node", "dist/main.js", "serve"]
