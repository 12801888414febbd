import { defineConfig } from '@prisma/config';

// `env()` from @prisma/config throws when the variable is unset, even for
// `prisma generate`, so the URL is read with a fallback.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/gateway' },
});
