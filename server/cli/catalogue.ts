/**
 * The lab's catalogue from the command line:
 *   npm run catalogue:load -- prices-2027.json   load a catalogue file and make it the active one
 *   npm run catalogue:default > prices.json      write the default catalogue, as a template
 * Orders keep the products and prices they were built with. With the embedded database, stop the
 * server first (PGlite is single-process); on PostgreSQL it can run at any time.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../config.ts';
import { runCli } from './run-cli.ts';
import { openDatabase } from '../db/client.ts';
import { parseCatalogueFile } from '../catalogue/catalogue-file.ts';
import { defaultCatalogue } from '../catalogue/default-catalogue.ts';
import { loadCatalogue } from '../catalogue/load-catalogue.ts';

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
  let catalogue;
  try {
    catalogue = parseCatalogueFile(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    console.error(err instanceof SyntaxError ? `${file} is not valid JSON: ${err.message}` : err instanceof Error ? err.message : err);
    return 1;
  }
  const database = await openDatabase(loadConfig());
  try {
    const loaded = await loadCatalogue(database.db, catalogue);
    console.log(
      `Loaded "${catalogue.name}": ${loaded.papers} papers, ${loaded.printSizes} print sizes, ${loaded.finishingServices} finishing services. It is now the active catalogue.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
