import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandCalculatorCatalogue } from '../../src/client-rules/calculator-catalogue.ts';
import type { FinishingService, Paper } from '../../src/contract/catalogue.ts';
import { parseCatalogueFile } from '../../server/catalogue/catalogue-file.ts';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { ensureCatalogue, loadCatalogue } from '../../server/catalogue/load-catalogue.ts';
import { catalogues, printSizes } from '../../server/db/schema.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { CallName, Contract } from '../../src/contract/index.ts';
import { callApi, type CallAnswer } from './contract-call.ts';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  if (!(await ensureCatalogue(t.db))) throw new Error('the default catalogue was not loaded');
});
afterAll(() => t.close());

/** The answer of a catalogue read that must succeed. */
const read = async <N extends CallName>(answer: Promise<CallAnswer<N>>) => {
  const res = await answer;
  if (res.status !== 200) throw new Error(`${res.response.statusCode} ${res.response.body}`);
  return res.json();
};
const papersRead = async () => (await read(callApi(t.app, 'GET /papers_with_details', {}))).data;
const finishingRead = async (guid: string) => (await read(callApi(t.app, 'GET /products/:print_size_guid/finishing_services', { params: { print_size_guid: guid } }))).data;
const calculatorRead = () => read(callApi(t.app, 'GET /calculator_catalogue', {}));
const size = (papers: Paper[], paper: string, name: string) => {
  const found = papers.find((p) => p.name === paper)?.print_size_pricings.find((s) => s.name === name);
  if (!found) throw new Error(`${paper} ${name} not in the catalogue`);
  return found;
};

describe('the default catalogue', () => {
  it('has the papers of the spec, each with WxH print sizes, aspects and prices', async () => {
    const papers = await papersRead();
    expect(papers.map((p) => p.name)).toEqual(
      expect.arrayContaining(['Lustre', 'Matte', 'Metallic', 'Brushed Canvas', 'Canvas - Gallery Wrap', 'Canvas - White Wrap', 'Canvas - Black Wrap', 'Canvas - Mirror Wrap', 'Deckled Circle', 'Deckled Circle - Border']),
    );
    for (const paper of papers) {
      expect(paper.print_size_pricings.length).toBeGreaterThan(0);
      for (const s of paper.print_size_pricings) {
        expect(s.name).toBe(`${s.x_aspect}x${s.y_aspect}`);
        expect(s.price).toBeGreaterThan(0);
        expect(Math.abs(s.price * 100 - Math.round(s.price * 100))).toBeLessThan(1e-6);
      }
    }
    expect(size(papers, 'Canvas - Gallery Wrap', '16x24').price).toBe(98);
    expect(size(papers, 'Lustre', '8x10')).toMatchObject({ price: 3.1, x_aspect: 8, y_aspect: 10 });
  });

  it('offers finishing per print size, grouped by category, with details and ACRYLIC as the default glass', async () => {
    const papers = await papersRead();
    const groups = await finishingRead(size(papers, 'Lustre', '8x10').guid);
    expect(groups.map((g) => g.finishing_category)).toEqual(['four_ply_mat', 'eight_ply_mat', 'mount', 'contemporary_frame', 'hardwood_frame', 'desktop_frame']);
    const hardwood = groups.find((g) => g.finishing_category === 'hardwood_frame')?.services[0];
    expect(hardwood?.formatted_frame_profile).toBe('-1.5');
    expect(Object.keys(hardwood?.detail_pricings ?? {})).toEqual(['frame_mat', 'glass', 'stain']);
    expect(hardwood?.detail_pricings.glass?.find((g) => g.is_default)?.name).toBe('ACRYLIC');
    const mount = groups.find((g) => g.finishing_category === 'mount')?.services[0];
    expect(mount?.detail_pricings.mount_color?.map((c) => c.name)).toEqual(['Black', 'White']);

    const canvas = await finishingRead(size(papers, 'Canvas - Gallery Wrap', '16x24').guid);
    expect(canvas.map((g) => g.finishing_category)).toEqual(['hardwood_float_canvas_frame']);
  });

  it('answers 404 for a print size that is not offered', async () => {
    for (const guid of ['6f1c7a52-2b8e-4c55-9d0e-000000000000', 'not-a-guid']) {
      const res = await callApi(t.app, 'GET /products/:print_size_guid/finishing_services', { params: { print_size_guid: guid } });
      expect([404, 422]).toContain(res.status);
      expectErrorBody(res.json(), res.status);
    }
  });

  it("groups the calculator's catalogue as four_ply_mat, eight_ply_mat, mount, standard_frame, premium_frame", async () => {
    const wire = await calculatorRead();
    const papers = expandCalculatorCatalogue(wire);
    const lustre8x10 = papers.find((p) => p.name === 'Lustre')?.print_size_pricings.find((s) => s.name === '8x10');
    expect(Object.keys(lustre8x10?.calculator_groups ?? {})).toEqual(['four_ply_mat', 'eight_ply_mat', 'mount', 'standard_frame', 'premium_frame']);
    const premium = lustre8x10?.calculator_groups.premium_frame ?? [];
    expect(new Set(premium.map((s) => s.finishing_category))).toEqual(new Set(['hardwood_frame', 'desktop_frame']));
    for (const option of premium) expect(option).toMatchObject({ guid: expect.any(String), name: expect.any(String), price: expect.any(Number) });
  });

  it("sends each distinct finishing and detail choice of the calculator's catalogue once, and unfolds to what finishing_services says", async () => {
    const wire = await calculatorRead();
    expect(Object.keys(wire.options)).toHaveLength(77);
    expect(Object.keys(wire.finishing).length).toBeLessThan(200);
    const refs = wire.data.flatMap((p) => p.print_size_pricings.flatMap((s) => Object.values(s.calculator_groups).flat()));
    expect(refs.length).toBeGreaterThan(500);

    const papers = await papersRead();
    const print = size(papers, 'Metallic', '11x14');
    const groups = await finishingRead(print.guid);
    const frame = groups.find((g) => g.finishing_category === 'hardwood_frame')?.services[1];
    const unfolded = expandCalculatorCatalogue(wire)
      .find((p) => p.name === 'Metallic')
      ?.print_size_pricings.find((s) => s.guid === print.guid)
      ?.calculator_groups.premium_frame?.find((s) => s.guid === frame?.guid);
    const withoutGuids = (s: FinishingService | undefined) =>
      s && { ...s, detail_pricings: Object.fromEntries(Object.entries(s.detail_pricings).map(([k, list]) => [k, list.map(({ guid: _g, ...d }) => d)])) };
    expect(withoutGuids(unfolded)).toEqual(withoutGuids(frame));
  });

  it('lists prices by paper with the least each finishing costs', async () => {
    const list = (await read(callApi(t.app, 'GET /price-lists', {}))).data;
    const row = list.find((p) => p.name === 'Lustre')?.print_sizes.find((s) => s.name === '8x10');
    expect(row?.price).toBe(3.1);
    expect(row?.finishing_from.four_ply_mat).toBe(9);
    expect(row?.finishing_from.mount).toBe(4);
  });
});

describe('POST /price_quote', () => {
  const quote = (body: InputOf<Contract['POST /price_quote']>['body']) => callApi(t.app, 'POST /price_quote', { body });
  /** The guids of the chosen details; one the test catalogue lacks fails the test here. */
  const guids = (...details: ({ guid: string } | undefined)[]) =>
    details.map((detail) => {
      if (!detail) throw new Error('a finishing detail the test catalogue offers is missing');
      return detail.guid;
    });

  it('prices a framed print as (print + frame + mat + glass + stain) × quantity', async () => {
    const papers = await papersRead();
    const print = size(papers, 'Metallic', '11x14');
    const groups = await finishingRead(print.guid);
    const frame = groups.find((g) => g.finishing_category === 'hardwood_frame')?.services[1];
    if (!frame) throw new Error('no hardwood frame');
    const pick = (kind: 'frame_mat' | 'glass' | 'stain', i: number) => frame.detail_pricings[kind]?.[i];
    const mat = pick('frame_mat', 1);
    const glass = pick('glass', 1);
    const stain = pick('stain', 2);
    const res = await quote({ print_size: print.guid, finishing_service: frame.guid, finishing_service_details: guids(mat, glass, stain), quantity: 3 });
    expect(res.status).toBe(200);
    const cents = (d: number | undefined) => Math.round((d ?? 0) * 100);
    const unit = cents(print.price) + cents(frame.price) + cents(mat?.price) + cents(glass?.price) + cents(stain?.price);
    expect(res.json()).toMatchObject({ quantity: 3, subtotal: (unit * 3) / 100, print_price: print.price, finishing: frame.name });
  });

  it("prices the calculator's choices sent as option keys, and refuses a key the service does not offer", async () => {
    const wire = await calculatorRead();
    const print = expandCalculatorCatalogue(wire)
      .find((p) => p.name === 'Lustre')
      ?.print_size_pricings.find((s) => s.name === '8x10');
    const frame = print?.calculator_groups.premium_frame?.[0];
    if (!print || !frame) throw new Error('no Lustre 8x10 with a premium frame');
    const mat = frame.detail_pricings.frame_mat?.[1];
    const glass = frame.detail_pricings.glass?.[1];
    const stain = frame.detail_pricings.stain?.[1];
    const res = await quote({ print_size: print.guid, finishing_service: frame.guid, finishing_options: guids(mat, glass, stain), quantity: 2 });
    expect(res.status).toBe(200);
    const cents = (d: number | undefined) => Math.round((d ?? 0) * 100);
    expect(res.json().subtotal).toBe(((cents(print.price) + cents(frame.price) + cents(mat?.price) + cents(glass?.price) + cents(stain?.price)) * 2) / 100);

    const mount = print.calculator_groups.mount?.[0];
    const foreign = await quote({ print_size: print.guid, finishing_service: frame.guid, finishing_options: guids(mount?.detail_pricings.mount_color?.[0]), quantity: 1 });
    expect(foreign.status).toBe(422);
    expect(expectErrorBody(foreign.json(), 422).message).toBe(`That finishing detail is not offered with ${frame.name}.`);
  });

  it('prices a mat by size alone, or with the MAT CLASS the builder offers', async () => {
    const papers = await papersRead();
    const print = size(papers, 'Lustre', '8x10');
    const groups = await finishingRead(print.guid);
    const mat = groups.find((g) => g.finishing_category === 'four_ply_mat')?.services[0];
    const classes = mat?.detail_pricings.mat_class ?? [];
    expect(classes.map((c) => c.name)).toEqual(['Standard', 'Conservation (acid-free)', 'Museum (cotton rag)']);
    expect(classes.find((c) => c.is_default)?.price).toBe(0);
    const plain = await quote({ print_size: print.guid, finishing_service: mat?.guid, quantity: 1 });
    expect(plain.json().finishing_price).toBe(mat?.price);
    const museum = classes[2];
    const withClass = await quote({ print_size: print.guid, finishing_service: mat?.guid, finishing_service_details: guids(museum), quantity: 1 });
    expect(withClass.json().finishing_price).toBeCloseTo((mat?.price ?? 0) + (museum?.price ?? 0), 2);
  });

  it('prices a print with no finishing', async () => {
    const papers = await papersRead();
    const print = size(papers, 'Lustre', '4x6');
    const res = await quote({ print_size: print.guid, quantity: 25 });
    expect(res.json()).toMatchObject({ subtotal: 16.25, finishing_price: 0 });
  });

  it('refuses an incomplete frame, a detail of another service, and a quantity of 0', async () => {
    const papers = await papersRead();
    const print = size(papers, 'Lustre', '8x10');
    const groups = await finishingRead(print.guid);
    const [frameA, frameB] = groups.find((g) => g.finishing_category === 'contemporary_frame')?.services ?? [];
    if (!frameA || !frameB) throw new Error('no frames');
    const incomplete = await quote({ print_size: print.guid, finishing_service: frameA.guid, finishing_service_details: guids(frameA.detail_pricings.frame_mat?.[0]), quantity: 1 });
    expect(incomplete.status).toBe(422);
    expect(expectErrorBody(incomplete.json(), 422).message).toMatch(/^Please select all finishing details/);
    const foreign = await quote({ print_size: print.guid, finishing_service: frameA.guid, finishing_service_details: guids(frameB.detail_pricings.frame_mat?.[0]), quantity: 1 });
    expect(foreign.status).toBe(422);
    const zero = await quote({ print_size: print.guid, quantity: 0 });
    expect(zero.status).toBe(422);
    expect(expectErrorBody(zero.json(), 422).message).toBe('Quantity must be at least 1.');
  });
});

const CATALOGUE_READS = ['/papers_with_details', '/calculator_catalogue', '/price-lists'];

describe('caching the catalogue', () => {
  it('sends a strong ETag, public revalidation and Vary, and answers If-None-Match with an empty 304', async () => {
    const papers = await papersRead();
    for (const path of [...CATALOGUE_READS, `/products/${size(papers, 'Lustre', '8x10').guid}/finishing_services`]) {
      const first = await t.app.inject({ method: 'GET', url: api(path), headers: { 'accept-encoding': 'br' } });
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      expect(first.headers.vary).toBe('Accept-Encoding');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+-br"$/);
      // The same answer compressed otherwise, or not at all, has its own strong ETag; any revalidates.
      const plain = await t.app.inject({ method: 'GET', url: api(path) });
      expect(plain.headers.etag).toBe(etag.replace(/-br"$/, '"'));
      for (const headers of [{ 'if-none-match': etag }, { 'if-none-match': `"other", ${String(plain.headers.etag)}`, 'accept-encoding': 'gzip' }]) {
        const again = await t.app.inject({ method: 'GET', url: api(path), headers });
        expect([path, again.statusCode]).toEqual([path, 304]);
        expect(again.body).toBe('');
        expect(again.headers['cache-control']).toBe('public, no-cache');
        expect(again.headers['content-encoding']).toBeUndefined();
      }
      const stale = await t.app.inject({ method: 'GET', url: api(path), headers: { 'if-none-match': '"an-older-catalogue"' } });
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toEqual(plain.json());
    }
  });

  it('answers HEAD with the headers alone, and a print size that is not offered with a 404 error body, uncached', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: api('/calculator_catalogue'), headers: { 'accept-encoding': 'gzip' } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toMatch(/-gzip"$/);
    const missing = await t.app.inject({ method: 'GET', url: api('/products/6f1c7a52-2b8e-4c55-9d0e-000000000000/finishing_services'), headers: { 'accept-encoding': 'br' } });
    expect(missing.statusCode).toBe(404);
    expectErrorBody(missing.json(), 404);
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});

describe('replacing the catalogue', () => {
  it('makes the new file the active catalogue and keeps the old rows for existing orders', async () => {
    const etags = await Promise.all(CATALOGUE_READS.map(async (path) => String((await t.app.inject({ method: 'GET', url: api(path) })).headers.etag)));
    const before = await papersRead();
    const oldSize = size(before, 'Lustre', '8x10');
    await loadCatalogue(
      t.db,
      parseCatalogueFile({ name: 'Spring 2027', papers: [{ name: 'Lustre', allows_border: true, print_sizes: [{ name: '8x10', x_aspect: 8, y_aspect: 10, price: '3.50' }] }] }),
    );
    // Loaded behind the API's back (as npm run catalogue:load or another API process does): the
    // next read sees it, and a copy revalidated with the old ETag is replaced.
    for (const [i, path] of CATALOGUE_READS.entries()) {
      const res = await t.app.inject({ method: 'GET', url: api(path), headers: { 'if-none-match': etags[i] ?? '' } });
      expect([path, res.statusCode]).toEqual([path, 200]);
      expect(res.headers.etag).not.toBe(etags[i]);
    }
    const after = await papersRead();
    expect(after.map((p) => p.name)).toEqual(['Lustre']);
    const calculator = await calculatorRead();
    expect(calculator.data[0]?.print_size_pricings.map((s) => [s.name, s.price])).toEqual([['8x10', 3.5]]);
    expect(size(after, 'Lustre', '8x10').price).toBe(3.5);
    const gone = await callApi(t.app, 'GET /products/:print_size_guid/finishing_services', { params: { print_size_guid: oldSize.guid } });
    expect(gone.status).toBe(404);
    const rows = await t.db.select().from(printSizes);
    expect(rows.find((r) => r.guid === oldSize.guid)?.priceCents).toBe(310);
    expect((await t.db.select().from(catalogues)).filter((c) => c.active)).toHaveLength(1);
  });

  it('refuses a bad file with every problem named, and saves nothing', async () => {
    const count = (await t.db.select().from(catalogues)).length;
    expect(() =>
      parseCatalogueFile({
        name: 'Broken',
        papers: [{ name: 'Lustre', print_sizes: [{ name: 'big', x_aspect: 8, y_aspect: 10, price: 'free', finishing: [{ category: 'mount', name: 'Flush', price: 4 }] }] }],
      }),
    ).toThrow(/papers\.0\.print_sizes\.0\.name: print size names read WxH[\s\S]*"free" is not a price[\s\S]*needs mount_color choices/);
    expect((await t.db.select().from(catalogues)).length).toBe(count);
  });

  it('is loaded once: a second start finds it', async () => {
    await expect(ensureCatalogue(t.db)).resolves.toBe(false);
  });

  it('the default catalogue file passes its own validation', () => {
    expect(() => parseCatalogueFile(defaultCatalogue())).not.toThrow();
  });
});
