import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one migration set that PGlite and PostgreSQL both run (npm run db:generate writes it). */
export const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');
