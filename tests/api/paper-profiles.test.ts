import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogueFile } from '../../server/catalogue/catalogue-profiles.ts';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { paperProfiles } from '../../server/db/schema.ts';
import type { Paper } from '../../src/contract/catalogue.ts';
import { PAPER_PROFILE_MAX_BYTES } from '../../src/domain/paper-profile.ts';
import { callApi } from './contract-call.ts';
import { expectErrorBody, type TestApp } from './helper.ts';
import { labWithAdmin } from './line-items-helpers.ts';
import { cmykPrinterProfile, srgbDisplayProfile, withoutColourTables } from './paper-profile-files.ts';
import { photographer } from './photo-helpers.ts';

/** A paper's ICC profile (issue 35): the admin's upload, its checks, the catalogue's link, the file. */
let t: TestApp;
let admin: string;
let ann: string;
let cmyk: Buffer;
beforeAll(async () => {
  ({ t, admin } = await labWithAdmin());
  ({ token: ann } = await photographer(t));
  cmyk = await cmykPrinterProfile();
});
afterAll(() => t.close());

const papers = async () => {
  const res = await callApi(t.app, 'GET /papers_with_details', {});
  expect(res.status).toBe(200);
  return res.json().data;
};
const paperNamed = async (name: string): Promise<Paper> => {
  const paper = (await papers()).find((p) => p.name === name);
  if (!paper) throw new Error(`${name} is not in the catalogue`);
  return paper;
};
const attach = async (paper: string, bytes: Buffer, as: string | null = admin, fileName = 'lustre.icc') =>
  callApi(t.app, 'PUT /papers/:paper_guid/icc_profile', { params: { paper_guid: paper }, body: { file_name: fileName, profile: bytes.toString('base64') } }, as ? { token: as } : {});
const storedCount = async () => (await t.db.select({ key: paperProfiles.key }).from(paperProfiles)).length;
const objectCount = async () => {
  let n = 0;
  for (const row of await t.db.select({ key: paperProfiles.key }).from(paperProfiles)) if (await t.storage.head(row.key)) n += 1;
  return n;
};

describe('attaching a profile to a paper', () => {
  it('stores a printer profile, links it from the catalogue, and serves the same bytes, cached for good', async () => {
    const lustre = await paperNamed('Lustre');
    expect(lustre.icc_profile).toBeNull();
    const res = await attach(lustre.guid, cmyk);
    expect(res.status).toBe(200);
    const profile = res.json().data;
    expect(profile).toMatchObject({ name: 'lustre.icc', colour_space: 'CMYK' });
    expect(profile.key).toMatch(/^paper-profiles\/[0-9a-f]{64}\.icc$/);

    // The catalogue answer changes at once (its cached copy is per revision), for both reads.
    expect((await paperNamed('Lustre')).icc_profile).toEqual(profile);
    expect((await paperNamed('Matte')).icc_profile).toBeNull();
    const calculator = (await callApi(t.app, 'GET /calculator_catalogue', {})).json();
    expect(calculator.data.find((p) => p.name === 'Lustre')?.icc_profile).toEqual(profile);

    const file = await t.app.inject({ method: 'GET', url: profile.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/vnd.iccprofile');
    expect(file.headers['cache-control']).toContain('immutable');
    expect(Buffer.compare(file.rawPayload, cmyk)).toBe(0);
  });

  it('gives the same bytes the same key, and other bytes another', async () => {
    const matte = await paperNamed('Matte');
    const again = (await attach(matte.guid, cmyk, admin, 'matte.icc')).json().data;
    expect(again.key).toBe((await paperNamed('Lustre')).icc_profile?.key);
    const changed = Buffer.from(cmyk);
    // A byte of the profile's ID field (header bytes 84-99), which no reader checks: other bytes, same profile.
    changed[99] = (changed[99] ?? 0) ^ 0xff;
    const other = (await attach(matte.guid, changed, admin, 'matte-2.icc')).json().data;
    expect(other.key).not.toBe(again.key);
    expect((await paperNamed('Matte')).icc_profile?.key).toBe(other.key);
  });

  it.each([
    ['not a profile', () => Buffer.from('%PDF-1.4 this is a document, not a colour profile'), /not an ICC profile/],
    ['an input-only (display) profile', srgbDisplayProfile, /not a printer \(output\) profile: its class is Monitor/],
    ['a cut-off profile', async () => (await cmykPrinterProfile()).subarray(0, 4000), /not an ICC profile|cannot be read/],
    ['a printer profile LittleCMS cannot proof through', async () => withoutColourTables(await cmykPrinterProfile()), /LittleCMS cannot proof through this profile \(relative colorimetric\)/],
  ])('refuses %s with the reason, keeping nothing', async (_what, make, reason) => {
    const paper = await paperNamed('Metallic');
    const before = { rows: await storedCount(), objects: await objectCount() };
    const res = await attach(paper.guid, await make());
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toMatch(reason);
    expect({ rows: await storedCount(), objects: await objectCount() }).toEqual(before);
    expect((await paperNamed('Metallic')).icc_profile).toBeNull();
  });

  it('refuses a profile over the limit before reading it as one', async () => {
    const paper = await paperNamed('Metallic');
    const res = await attach(paper.guid, Buffer.alloc(PAPER_PROFILE_MAX_BYTES + 1));
    expect(res.status).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toMatch(/larger than 8 MB/);
    expect((await paperNamed('Metallic')).icc_profile).toBeNull();
  });

  it('is for lab admins only: 403 for a photographer, 401 signed out, 404 for a paper not offered', async () => {
    const paper = await paperNamed('Metallic');
    expect((await attach(paper.guid, cmyk, ann)).status).toBe(403);
    expect((await attach(paper.guid, cmyk, null)).status).toBe(401);
    expect((await attach('00000000-0000-4000-8000-000000000000', cmyk)).status).toBe(404);
    expect((await paperNamed('Metallic')).icc_profile).toBeNull();
  });

  it('serves only profiles the lab stored', async () => {
    for (const file of [`${'0'.repeat(64)}.icc`, '..%2F..%2Fsecret', 'x.icc']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v2/paper_profiles/${file}` });
      expect(res.statusCode).toBe(404);
      expectErrorBody(res.json(), 404);
    }
  });
});

describe('npm run catalogue:load with profiles', () => {
  const catalogueDir = () => mkdtempSync(join(tmpdir(), 'catalogue-profiles-'));
  const fileWith = (dir: string, profiles: Record<string, string>) => {
    const catalogue = defaultCatalogue() as { name: string; papers: { name: string; icc_profile?: string }[] };
    catalogue.name = `With profiles ${dir}`;
    for (const paper of catalogue.papers) if (profiles[paper.name]) paper.icc_profile = profiles[paper.name];
    const path = join(dir, 'prices.json');
    writeFileSync(path, JSON.stringify(catalogue));
    return path;
  };

  it('stores the profile a paper names, relative to the catalogue file; other papers keep theirs', async () => {
    const keptLustre = (await paperNamed('Lustre')).icc_profile?.key;
    const dir = catalogueDir();
    writeFileSync(join(dir, 'metallic.icc'), cmyk);
    const loaded = await loadCatalogueFile(t, fileWith(dir, { Metallic: 'metallic.icc' }));
    expect(loaded.profiles).toBe(1);
    const metallic = await paperNamed('Metallic');
    expect(metallic.icc_profile).toMatchObject({ colour_space: 'CMYK', key: keptLustre });
    expect((await paperNamed('Lustre')).icc_profile?.key).toBe(keptLustre);
    expect((await paperNamed('Deckled Circle')).icc_profile).toBeNull();
  });

  it('refuses a file whose profile is bad, naming the paper and the reason, and keeps the active catalogue', async () => {
    const before = (await paperNamed('Metallic')).guid;
    const rows = await storedCount();
    const dir = catalogueDir();
    writeFileSync(join(dir, 'screen.icc'), await srgbDisplayProfile());
    writeFileSync(join(dir, 'good.icc'), Buffer.concat([cmyk.subarray(0, 99), Buffer.from([1]), cmyk.subarray(100)]));
    writeFileSync(join(dir, 'no-tables.icc'), withoutColourTables(cmyk));
    const failed = await loadCatalogueFile(t, fileWith(dir, { Matte: 'good.icc', Metallic: 'screen.icc', Lustre: 'missing.icc', 'Deckled Circle': 'no-tables.icc' })).then(
      () => null,
      (err: unknown) => String(err),
    );
    expect(failed).toMatch(/Lustre: missing\.icc cannot be read \(ENOENT\)/);
    expect(failed).toMatch(/Metallic: screen\.icc: This is not a printer \(output\) profile/);
    expect(failed).toMatch(/Deckled Circle: no-tables\.icc: LittleCMS cannot proof through this profile/);
    expect((await paperNamed('Metallic')).guid).toBe(before);
    expect(await storedCount()).toBe(rows);
    expect(await t.db.select().from(paperProfiles).where(eq(paperProfiles.name, 'good.icc'))).toEqual([]);
  });
});

describe('removing a profile', () => {
  const remove = async (paper: string, as: string | null = admin) =>
    callApi(t.app, 'DELETE /papers/:paper_guid/icc_profile', { params: { paper_guid: paper } }, as ? { token: as } : {});
  const etag = async () => (await t.app.inject({ method: 'GET', url: '/api/v2/papers_with_details' })).headers.etag;
  const served = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
  // Bytes no other test attaches (another byte of the header's profile ID): a file of their own.
  const ownBytes = () => {
    const own = Buffer.from(cmyk);
    own[98] = (own[98] ?? 0) ^ 0xff;
    return own;
  };

  it('is for lab admins only: 403 for a photographer, 401 signed out, 404 for a paper not offered', async () => {
    const paper = await paperNamed('Metallic');
    expect(paper.icc_profile).not.toBeNull();
    expect((await remove(paper.guid, ann)).status).toBe(403);
    expect((await remove(paper.guid, null)).status).toBe(401);
    const missing = await remove('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expectErrorBody(missing.json(), 404);
    expect((await paperNamed('Metallic')).icc_profile).toEqual(paper.icc_profile);
  });

  it('takes the profile off the paper and moves the catalogue on; the file stays while another paper uses it', async () => {
    const [matte, deckled] = [await paperNamed('Matte'), await paperNamed('Deckled Circle')];
    const profile = (await attach(matte.guid, ownBytes(), admin, 'own.icc')).json().data;
    await attach(deckled.guid, ownBytes(), admin, 'own.icc');
    const before = await etag();

    const first = await remove(matte.guid);
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ success: true });
    expect((await paperNamed('Matte')).icc_profile).toBeNull();
    expect((await paperNamed('Deckled Circle')).icc_profile?.key).toBe(profile.key);
    expect(await etag()).not.toBe(before);
    expect(await served(profile.url)).toBe(200);

    // The last paper using it: the row and the object go.
    expect((await remove(deckled.guid)).status).toBe(200);
    expect((await paperNamed('Deckled Circle')).icc_profile).toBeNull();
    expect(await served(profile.url)).toBe(404);
    expect(await t.db.select().from(paperProfiles).where(eq(paperProfiles.key, profile.key))).toEqual([]);
    expect(await t.storage.head(profile.key)).toBeNull();

    // Attached again, the same bytes are stored again.
    expect((await attach(matte.guid, ownBytes(), admin, 'own.icc')).status).toBe(200);
    expect(await served(profile.url)).toBe(200);
    expect((await remove(matte.guid)).status).toBe(200);
  });

  it('keeps a file a paper of an earlier catalogue still names', async () => {
    // catalogue:load (above) made a new catalogue; the first one's Lustre still names this file.
    const lustre = await paperNamed('Lustre');
    const profile = lustre.icc_profile;
    if (!profile) throw new Error('Lustre has no profile: the tests above attach one');
    const using = (await papers()).filter((paper) => paper.icc_profile?.key === profile.key);
    expect(using.map((paper) => paper.name).sort()).toEqual(['Lustre', 'Metallic']);
    for (const paper of using) expect((await remove(paper.guid)).status).toBe(200);
    expect((await paperNamed('Lustre')).icc_profile).toBeNull();
    expect(await served(profile.url)).toBe(200);
  });

  it('leaves a paper without a profile as it is, the catalogue unchanged', async () => {
    const matte = await paperNamed('Matte');
    expect(matte.icc_profile).toBeNull();
    const before = await etag();
    expect((await remove(matte.guid)).json()).toEqual({ success: true });
    expect(await etag()).toBe(before);
  });
});
