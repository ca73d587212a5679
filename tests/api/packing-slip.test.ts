import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLIND_SLIP_NEEDS_BUSINESS_NAME, BLIND_SLIP_NOT_ALLOWED, LOGO_TOO_LARGE, MAX_LOGO_BYTES } from '../../src/domain/packing-slip.ts';
import { labOrders, users } from '../../server/db/schema.ts';
import { unzip } from '../unit/fixtures/unzip.ts';
import { callApi } from './contract-call.ts';
import { expectErrorBody } from './helper.ts';
import { decompressionBombPng, smallPng, textFile } from './hostile-files.ts';
import { addItems, labWithAdmin, orderDetail, orderWithPhotos, payload } from './line-items-helpers.ts';
import { callAs } from './photo-helpers.ts';

/**
 * The blind packing slip (issue 34, docs/lab-rules.md §9): the studio's logo and return address
 * on /account, the order's choice at checkout, and the PDF the lab gets: the studio's name, the
 * ship-to and the items, never the lab's name nor a price.
 */
let lab: Awaited<ReturnType<typeof labWithAdmin>>;
beforeAll(async () => {
  lab = await labWithAdmin({ jobs: true });
});
afterAll(() => lab.t.close());

const base64 = (bytes: Buffer) => bytes.toString('base64');
const identity = (token: string) => callApi(lab.t.app, 'GET /accounts/packing_slip', {}, { token });
const putLogo = (token: string, data: string) => callApi(lab.t.app, 'PUT /accounts/packing_slip/logo', { body: { data } }, { token });
const CLIENT = { recipient_name: 'Jane Client', street_address: '9 Oak Ave', city: 'Memphis', state: 'TN', zip: '38103' };
/** Ship the order straight to the photographer's client: the only kind of order a blind slip goes with. */
const dropShip = (token: string, order: string) => callApi(lab.t.app, 'PUT /lab_orders/:guid/drop_ship', { params: { guid: order }, body: CLIENT }, { token });
const chooseSlip = (token: string | null, order: string, value: boolean) =>
  callAs(lab.t.app, 'PATCH /lab_orders/:guid', { params: { guid: order }, body: { type: 'blind_slip', value } }, token ? { token } : {});
/** GET a signed storage link through the app, as the browser would. */
const fetchLink = (link: string) => {
  const url = new URL(link, 'http://lab.test');
  return lab.t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
};
/** The text a PDF shows: its content streams are plain text operators, `(text) Tj`. */
const pdfText = (pdf: Buffer) => [...pdf.toString('latin1').matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1')).join('\n');
const logoFolder = (userGuid: string) => join(lab.t.storage.root, 'packing-slips', userGuid);

describe('the packing-slip identity on /account', () => {
  it('keeps a checked logo as a JPEG linked to its owner only', async () => {
    const a = await orderWithPhotos(lab.t, 0);
    const b = await orderWithPhotos(lab.t, 0);
    const saved = await putLogo(a.token, `data:image/png;base64,${base64(await smallPng())}`);
    expect(saved.status).toBe(200);
    const link = saved.json().data.logo_link ?? '';
    const got = await fetchLink(link);
    expect(got.statusCode).toBe(200);
    expect([...got.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // Another photographer is never given it, nor is the admin; a link without its signature is refused.
    expect((await identity(b.token)).json().data.logo_link).toBeNull();
    expect((await identity(lab.admin)).json().data.logo_link).toBeNull();
    expect((await fetchLink(link.split('?')[0] ?? '')).statusCode).toBe(403);
    // A new logo replaces the old one's file.
    const again = await putLogo(a.token, base64(await smallPng()));
    expect(again.status).toBe(200);
    expect((await fetchLink(link)).statusCode).toBe(404);
    expect((await callApi(lab.t.app, 'DELETE /accounts/packing_slip/logo', {}, { token: a.token })).json().data.logo_link).toBeNull();
    // Replaced and removed logos leave no file behind.
    const folder = logoFolder(a.user.guid);
    expect(existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.jpg')) : []).toEqual([]);
  });

  it('refuses what is no image, too large or a pixel bomb, and keeps nothing', async () => {
    const a = await orderWithPhotos(lab.t, 0);
    const text = await putLogo(a.token, base64(textFile()));
    expect(expectErrorBody(text.json(), 422).message).toBe('The logo must be a JPEG or PNG file. This file is a text file.');
    const big = Buffer.alloc(MAX_LOGO_BYTES + 1, 0x20);
    big.set([0xff, 0xd8, 0xff], 0);
    expect(expectErrorBody((await putLogo(a.token, base64(big))).json(), 422).message).toBe(LOGO_TOO_LARGE);
    const bomb = await putLogo(a.token, base64(decompressionBombPng()));
    expect(expectErrorBody(bomb.json(), 422).message).toContain('megapixels');
    expect(expectErrorBody((await putLogo(a.token, 'not base64!')).json(), 422).message).toContain('base64');
    expect((await identity(a.token)).json().data.logo_link).toBeNull();
    expect(existsSync(logoFolder(a.user.guid))).toBe(false);
  });

  it('keeps the return address apart from the shipping addresses', async () => {
    const a = await orderWithPhotos(lab.t, 0);
    const address = { name: 'Rosa Studio', street: '12 Elm St', street_2: '', city: 'Nashville', state: 'TN', zip: '37201' };
    const saved = await callApi(lab.t.app, 'PUT /accounts/packing_slip/return_address', { body: { return_address: address } }, { token: a.token });
    expect(saved.json().data.return_address).toEqual({ ...address, street_2: null });
    const profile = await callApi(lab.t.app, 'GET /profile', {}, { token: a.token });
    expect(JSON.stringify(profile.json())).not.toContain('12 Elm St');
    const blank = await callApi(lab.t.app, 'PUT /accounts/packing_slip/return_address', { body: { return_address: { ...address, street: ' ' } } }, { token: a.token });
    expect(expectErrorBody(blank.json(), 422).more_info.join(' ')).toContain('Enter the street address.');
  });
});

describe("the order's blind slip", () => {
  it('is chosen by the owner or an admin on an open drop-ship order, once the studio has a name', async () => {
    const o = await orderWithPhotos(lab.t, 0);
    await lab.t.db.update(users).set({ businessName: 'Rosa Studio' }).where(eq(users.guid, o.user.guid));
    // Shipped to the studio itself: nothing to disguise, no slip.
    expect(expectErrorBody((await chooseSlip(o.token, o.order, true)).json(), 422).message).toBe(BLIND_SLIP_NOT_ALLOWED);
    expect((await dropShip(o.token, o.order)).status).toBe(200);
    await lab.t.db.update(users).set({ businessName: '' }).where(eq(users.guid, o.user.guid));
    const noName = await chooseSlip(o.token, o.order, true);
    expect(expectErrorBody(noName.json(), 422).message).toBe(BLIND_SLIP_NEEDS_BUSINESS_NAME);
    await lab.t.db.update(users).set({ businessName: 'Rosa Studio' }).where(eq(users.guid, o.user.guid));
    const chosen = await chooseSlip(o.token, o.order, true);
    expect(chosen.status).toBe(200);
    expect(chosen.json().data.attributes).toMatchObject({ blind_slip: true, blind_slip_allowed: true });
    const other = await orderWithPhotos(lab.t, 0);
    expect((await chooseSlip(other.token, o.order, false)).status).toBe(404);
    expect((await chooseSlip(null, o.order, false)).status).toBe(401);
    expect((await chooseSlip(lab.admin, o.order, false)).json().data.attributes.blind_slip).toBe(false);
    // Not a boolean, on purpose: the lab refuses what the contract does not allow.
    expect(expectErrorBody((await chooseSlip(o.token, o.order, 'maybe' as unknown as boolean)).json(), 422).message).toBe('blind_slip takes true or false.');
    // Picked up at the lab: no slip to choose, and a slip chosen before is not used.
    await lab.t.db.update(labOrders).set({ blindSlip: true, localPickup: true }).where(eq(labOrders.guid, o.order));
    expect(expectErrorBody((await chooseSlip(o.token, o.order, true)).json(), 422).message).toBe(BLIND_SLIP_NOT_ALLOWED);
    expect(await orderDetail(lab.t, o.token, o.order)).toMatchObject({ blind_slip: false, blind_slip_allowed: false });
    // Paid: the order is no longer open to checkout choices.
    await lab.t.db.update(labOrders).set({ localPickup: false, status: 'paid' }).where(eq(labOrders.guid, o.order));
    expect((await chooseSlip(o.token, o.order, false)).status).toBe(422);
  });
});

describe('the slip PDF', () => {
  it("holds the studio's name, logo, return address, ship-to and items, no price nor lab name; in the zip too", async () => {
    const { t, p, admin } = lab;
    const o = await orderWithPhotos(t, 2);
    await t.db.update(users).set({ businessName: 'Rosa Studio' }).where(eq(users.guid, o.user.guid));
    await putLogo(o.token, base64(await smallPng()));
    const address = { name: 'Rosa Studio returns', street: '12 Elm St', street_2: null, city: 'Nashville', state: 'TN', zip: '37201' };
    await callApi(t.app, 'PUT /accounts/packing_slip/return_address', { body: { return_address: address } }, { token: o.token });
    expect((await addItems(t, o.token, o.order, o.photos.map((photo) => payload(photo, p.size.guid, { quantity: 3 })))).status).toBe(201);
    expect((await dropShip(o.token, o.order)).status).toBe(200);
    const slip = (token: string) => callApi(t.app, 'GET /lab_orders/:guid/packing_slip', { params: { guid: o.order } }, { token });
    expect((await slip(admin)).status).toBe(422);
    expect((await chooseSlip(o.token, o.order, true)).status).toBe(200);

    expect((await slip(o.token)).status).toBe(403);
    const asked = await slip(admin);
    expect(asked.status).toBe(200);
    const pdf = (await fetchLink(asked.json().packing_slip_link)).rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/Filter /DCTDecode');
    const text = pdfText(pdf);
    for (const words of ['Rosa Studio', '12 Elm St', 'Nashville, TN 37201', 'Jane Client', '9 Oak Ave', 'Memphis, TN 38103', p.paper.name, p.size.name, '6 prints']) expect(text).toContain(words);
    expect(text).not.toMatch(/\$|\d\.\d\d|Print ?Lab|printlab/i);

    expect((await callAs(t.app, 'POST /lab_orders/:guid/create_zip_file', { params: { guid: o.order } }, { token: admin })).status).toBe(200);
    const zipLink = async () => (await orderDetail(t, admin, o.order)).download_all_link ?? null;
    await expect.poll(zipLink, { timeout: 30_000, interval: 250 }).toBeTruthy();
    const entries = await unzip((await fetchLink((await zipLink()) ?? '')).rawPayload);
    expect([...entries.keys()].sort()).toEqual(['IMG_1000.jpg', 'IMG_1001.jpg', 'packing-slip.pdf']);
    expect(pdfText(entries.get('packing-slip.pdf') ?? Buffer.alloc(0))).toContain('Rosa Studio');
  });
});
