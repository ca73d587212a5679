import { expect, test, type Page } from '@playwright/test';
import { idbRows, signIn } from './helpers.ts';

/**
 * Background Sync: with no page of the app open, the service worker sends the changes waiting in
 * IndexedDB with the same drain as the page (src/offline/outbox-drain.ts). The change here deletes
 * a line item the lab does not have: the lab answers 404, which the outbox takes as done.
 */

const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });

const rows = (page: Page, table: string) => idbRows<unknown>(page, table);

/** A change waiting in the outbox, written with the browser's own API: a delete the lab answers 404. */
const putChange = (page: Page, id: string) =>
  page.evaluate(
    (rowId) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('print-lab');
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          tx.objectStore('outbox').put({
            id: rowId,
            owner: 'admin@example.com',
            createdAt: Date.now(),
            seq: Date.now(),
            name: 'deleteLineItem',
            payload: { orderGuid: 'no-such-order', lineItemGuid: `no-such-line-item-${rowId}` },
            idempotencyKey: `bg-sync-key-${rowId}`,
            attempts: 0,
          });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    id,
  );

test('with the app closed, the service worker sends a waiting change when the browser fires sync', async ({ page, context, baseURL }) => {
  await page.goto('/login');
  await signIn(page);
  await controlled(page);
  // A first change kept on the device, and the app opened with it: the app sends it itself (a
  // delete of what the lab does not have is done), and keeps the token the worker sends with.
  // (Written behind Dexie's back, so the app reads it on the reload.)
  await putChange(page, 'bg-0');
  await page.reload();
  await expect.poll(async () => (await rows(page, 'syncCredentials')).length).toBe(1);
  await expect.poll(async () => (await rows(page, 'outbox')).length, { timeout: 15_000 }).toBe(0);

  // A same-origin document that is not the app: nothing of the page's own drain runs from here on.
  await page.goto('/version.json');
  await putChange(page, 'bg-1');
  expect(await rows(page, 'outbox')).toHaveLength(1);

  // Fire the browser's sync event for the app's tag, as Chromium does once a connection is back.
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(baseURL ?? ''));
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.dispatchSyncEvent', { origin: new URL(baseURL ?? '').origin, registrationId: await registration, tag: 'print-lab-outbox', lastChance: false });

  await expect.poll(async () => (await rows(page, 'outbox')).length, { timeout: 15_000 }).toBe(0);
});
