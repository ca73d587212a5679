import { defineConfig } from 'drizzle-kit';

// Generates the one migration set that both PGlite and PostgreSQL run (npm run db:generate).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
