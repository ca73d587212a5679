import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { catalogues, finishingDetails, finishingServices, papers, printSizes } from '../db/schema.ts';
import { parseCatalogueFile, type CatalogueFile } from './catalogue-file.ts';
import { defaultCatalogue } from './default-catalogue.ts';

// Rows per INSERT: well under PostgreSQL's 65,535 bind parameters at 8 columns a row.
const BATCH_ROWS = 1000;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) await insert(rows.slice(i, i + BATCH_ROWS));
}

/**
 * Loads a catalogue and makes it the active one, in one transaction. The previous catalogue's
 * rows stay (retired), so orders built with them keep their products and prices. `profileKeys`:
 * the stored ICC profile of a paper by its name (server/catalogue/catalogue-profiles.ts); a paper
 * without one keeps the profile the paper of its name has in the active catalogue.
 */
export async function loadCatalogue(db: Db, file: CatalogueFile, profileKeys: ReadonlyMap<string, string> = new Map()) {
  return db.transaction(async (tx) => {
    const kept = await tx
      .select({ name: papers.name, key: papers.iccProfileKey })
      .from(papers)
      .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)));
    const keptKeys = new Map(kept.map((p) => [p.name, p.key]));
    const [catalogue] = await tx
      .insert(catalogues)
      .values({ name: file.name, orderMinimumCents: file.order_minimum, turnaroundDays: file.turnaround, holidays: file.holidays, shippingSpeedCents: file.shipping_speeds, dropShipFeeCents: file.drop_ship_fee })
      .returning({ id: catalogues.id });
    if (!catalogue) throw new Error('catalogue row not created');
    const paperRows: (typeof papers.$inferInsert)[] = [];
    const sizeRows: (typeof printSizes.$inferInsert)[] = [];
    const serviceRows: (typeof finishingServices.$inferInsert)[] = [];
    const detailRows: (typeof finishingDetails.$inferInsert)[] = [];
    file.papers.forEach((paper, p) => {
      const paperGuid = randomUUID();
      const iccProfileKey = profileKeys.get(paper.name) ?? keptKeys.get(paper.name) ?? null;
      paperRows.push({ guid: paperGuid, catalogueId: catalogue.id, name: paper.name, allowsBorder: paper.allows_border, position: p, iccProfileKey });
      paper.print_sizes.forEach((size, s) => {
        const sizeGuid = randomUUID();
        sizeRows.push({ guid: sizeGuid, paperGuid, name: size.name, xAspect: size.x_aspect, yAspect: size.y_aspect, priceCents: size.price, position: s });
        size.finishing.forEach((f, i) => {
          const serviceGuid = randomUUID();
          serviceRows.push({ guid: serviceGuid, printSizeGuid: sizeGuid, category: f.category, name: f.name, frameProfile: f.frame_profile ?? null, priceCents: f.price, position: i });
          for (const [kind, choices = []] of Object.entries(f.details)) {
            // Without a marked default, the first choice is the default.
            const marked = choices.some((d) => d.default);
            choices.forEach((d, k) =>
              detailRows.push({ finishingServiceGuid: serviceGuid, kind, name: d.name, priceCents: d.price, isDefault: marked ? Boolean(d.default) : k === 0, position: k }),
            );
          }
        });
      });
    });
    await insertInBatches(paperRows, (b) => tx.insert(papers).values(b));
    await insertInBatches(sizeRows, (b) => tx.insert(printSizes).values(b));
    await insertInBatches(serviceRows, (b) => tx.insert(finishingServices).values(b));
    await insertInBatches(detailRows, (b) => tx.insert(finishingDetails).values(b));
    await tx.update(catalogues).set({ active: false }).where(ne(catalogues.id, catalogue.id));
    await tx.update(catalogues).set({ active: true }).where(eq(catalogues.id, catalogue.id));
    return { catalogueId: catalogue.id, papers: paperRows.length, printSizes: sizeRows.length, finishingServices: serviceRows.length, details: detailRows.length };
  });
}

/** First start: a lab without a catalogue gets the default one. Returns whether it loaded it. */
export async function ensureCatalogue(db: Db): Promise<boolean> {
  const [active] = await db.select({ id: catalogues.id }).from(catalogues).where(eq(catalogues.active, true)).limit(1);
  if (active) return false;
  await loadCatalogue(db, parseCatalogueFile(defaultCatalogue()));
  return true;
}
