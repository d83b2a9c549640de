import { defineConfig } from 'prisma/config';

// Prisma is used for `prisma generate` only; migrations are applied by src/platform/database/migrate.ts
// (see DESIGN.md: the schema engine that Prisma Migrate needs cannot be downloaded on our machines).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
