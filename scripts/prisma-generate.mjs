// `prisma generate` without network access. The Prisma CLI looks for a schema-engine binary even
// though generate does not use it, and would try to download one; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any executable satisfies that check (DESIGN.md, checked facts).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, 'generate'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
process.exit(result.status ?? 1);
