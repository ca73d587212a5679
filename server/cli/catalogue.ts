/**
 * The lab's catalogue from the command line:
 *   npm run catalogue:load -- prices-2027.json   load a catalogue file (and the ICC profiles its
 *                                                papers name) and make it the active one
 *   npm run catalogue:default > prices.json      write the default catalogue, as a template
 * Orders keep the products and prices they were built with. With the embedded database, stop the
 * server first (PGlite is single-process); on PostgreSQL it can run at any time.
 */
import { lazyLittleCms } from '../adapters/colour/little-cms.ts';
import { loadConfig } from '../config.ts';
import { runCli } from './run-cli.ts';
import { openDatabase } from '../db/client.ts';
import { loadCatalogueFile } from '../catalogue/catalogue-profiles.ts';
import { defaultCatalogue } from '../catalogue/default-catalogue.ts';
import { storageFor } from '../create-deps.ts';
import { loadAppSecret } from '../services/app-secret.ts';

async function main(args: string[]): Promise<number> {
  const [command, file] = args;
  if (command === 'default') {
    process.stdout.write(`${JSON.stringify(defaultCatalogue(), null, 2)}\n`);
    return 0;
  }
  if (command !== 'load' || !file) {
    console.error('Usage: catalogue load <file.json> | catalogue default');
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const storage = await storageFor(config, await loadAppSecret(database.db));
    const loaded = await loadCatalogueFile({ db: database.db, storage, littleCms: lazyLittleCms() }, file).catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      return null;
    });
    if (!loaded) return 1;
    console.log(
      `Loaded "${loaded.catalogue.name}": ${loaded.papers} papers, ${loaded.printSizes} print sizes, ${loaded.finishingServices} finishing services, ${loaded.profiles} ICC profiles. It is now the active catalogue.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
