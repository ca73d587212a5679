import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCatalogue } from '../../server/catalogue/load-catalogue.ts';
import { ROUTE_TABLE, type RouteRow } from './authorisation-table.ts';
import { actingAs, worldMaker, type Caller, type WorldMaker } from './authorisation-world.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { decompressionBombPng, minimalPdf, noisyJpeg, smallPng, textFile } from './hostile-files.ts';
import { REQUIRED_CASES, TRAVERSAL, mutations, urlPart, type Mutation } from './hostile-values.ts';
import { reachableRoutes } from './routes-of-app.ts';

/**
 * Hostile input to every mutating route (POST, PUT, PATCH, DELETE) of the OpenAPI document and
 * the hidden storage upload, as a caller allowed to use it, starting from the valid request of
 * its authorisation row and spoiling one part: never a 500, always the error body on a 4xx,
 * and after a refusal the database as it was.
 */
// Random runs per route, on top of REQUIRED_CASES: enough to find a route's gaps, few enough to keep
// the file well inside CI's time on 2 loaded cores.
const RUNS_PER_ROUTE = 15;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let t: TestApp;
let makeWorld: WorldMaker;
let documentedMutating: string[];
let openapi: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> }; parameters?: { name: string; schema: unknown }[] }>> };
beforeAll(async () => {
  // A vendor endpoint (never called: jobs are recorded), so SEND TO VENDOR is accepted when valid.
  t = await createTestApp({ VENDOR_API_URL: 'http://127.0.0.1:9/orders' }, { jobs: 'recorded' });
  await ensureCatalogue(t.db);
  const routes = await reachableRoutes(t.app);
  openapi = (await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
  documentedMutating = routes.documented.filter((route) => MUTATING.has(route.split(' ')[0] ?? ''));
  makeWorld = await worldMaker(t, { impersonateThroughApi: routes.documented.includes('POST /api/v2/login_as_user') });
});
afterAll(() => t.close());

/**
 * What a refusal rightly changes, left out of the fingerprint: failed sign-ins and reset-token
 * tries are counted to stop guessing, and every request is counted against the rate limits.
 * Every other table of the lab's schema is fingerprinted, found at run time, so a table added
 * later is guarded without anyone remembering to list it.
 */
const CHANGED_BY_A_REFUSAL: Record<string, string[]> = {
  users: ['failed_login_count', 'failed_login_at'],
  password_resets: ['failed_attempts'],
  rate_limit_hits: ['*'],
};
let fingerprinted: [table: string, ignored: string[]][] | undefined;
async function tablesToFingerprint(): Promise<[string, string[]][]> {
  if (fingerprinted) return fingerprinted;
  const rows = await t.db.execute<{ name: string }>(
    sql.raw(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`),
  );
  const list = Array.isArray(rows) ? rows : (rows as { rows: { name: string }[] }).rows;
  fingerprinted = list.map((r): [string, string[]] => [r.name, CHANGED_BY_A_REFUSAL[r.name] ?? []]).filter(([, ignored]) => !ignored.includes('*'));
  if (fingerprinted.length < 20) throw new Error(`only ${fingerprinted.length} tables found to fingerprint: the schema query is wrong`);
  return fingerprinted;
}
async function fingerprint(): Promise<Record<string, string>> {
  const parts = (await tablesToFingerprint()).map(
    ([table, ignored]) =>
      `select '${table}' as t, count(*)::text || ':' || coalesce(md5(string_agg(j::text, '|' order by j::text)), '') as f from (select to_jsonb(x) - array[${ignored.map((c) => `'${c}'`).join(',')}]::text[] as j from "${table}" x) s`,
  );
  const rows = await t.db.execute<{ t: string; f: string }>(sql.raw(parts.join(' union all ')));
  const list = Array.isArray(rows) ? rows : (rows as { rows: { t: string; f: string }[] }).rows;
  return Object.fromEntries(list.map((r) => [r.t, r.f]));
}

const AUTHORISED_FIRST: readonly Caller[] = ['owner', 'adminAsOwner', 'admin', 'other', 'anonymous'];
const authorisedCaller = (row: RouteRow) => AUTHORISED_FIRST.find((c) => row.access[c] === '2xx');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The valid request of the row, spoiled by one mutation. */
function spoil(url: string, payload: unknown, m: Mutation): { url: string; payload?: string; contentType?: string } {
  const [path = '', query] = url.split('?');
  const json = (body: unknown) => ({ url, payload: JSON.stringify(body), contentType: 'application/json' });
  switch (m.kind) {
    case 'field': {
      const body = payload && typeof payload === 'object' && !Array.isArray(payload) ? { ...(payload as Record<string, unknown>) } : {};
      const keys = Object.keys(body);
      // One of the fields, or one the route does not know.
      const field = keys[m.pick % (keys.length + 1)] ?? 'unexpected_field';
      return json({ ...body, [field]: m.value });
    }
    case 'body':
      return json(m.value);
    case 'param': {
      const value = m.encoded ? m.value : urlPart(m.value);
      const spoiled = UUID.test(path) ? path.replace(UUID, value) : `${path}/${value}`;
      return { url: `${spoiled}${query ? `?${query}` : ''}`, ...(payload === undefined ? {} : { payload: JSON.stringify(payload), contentType: 'application/json' }) };
    }
    case 'query':
      return { url: `${path}?${query ? `${query}&` : ''}q=${urlPart(m.value)}`, ...(payload === undefined ? {} : { payload: JSON.stringify(payload), contentType: 'application/json' }) };
    case 'raw':
      return { url, payload: m.body, contentType: m.contentType };
  }
}

const routes = Object.entries(ROUTE_TABLE).filter(([key]) => MUTATING.has(key.split(' ')[0] ?? ''));

describe('hostile input to every mutating route', () => {
  it('covers every mutating route of the OpenAPI document', () => {
    const tested = new Set(routes.map(([key]) => key));
    expect(documentedMutating.filter((route) => !tested.has(route))).toEqual([]);
  });

  it.for(routes)('%s', async ([key, row]) => {
    const caller = authorisedCaller(row);
    if (!caller) throw new Error(`${key}: no caller may use it, so nothing to spoil`);
    const method = key.split(' ')[0] as 'POST';
    // A refusal leaves the world as it was (that is asserted), so it serves the next run; an
    // accepted request may have used it up (a card removed, a password changed): a fresh one.
    let w = await makeWorld();
    let used = false;
    await fc.assert(
      fc.asyncProperty(mutations, async (m) => {
        if (used) w = await makeWorld();
        const valid = row.request(w, { caller, acting: actingAs(w, caller) });
        const req = spoil(valid.url, valid.payload, m);
        const before = await fingerprint();
        const res = await t.app.inject({
          method,
          url: req.url,
          headers: { ...(caller === 'anonymous' ? {} : { token: w.tokens[caller] }), ...(req.contentType ? { 'content-type': req.contentType } : {}) },
          ...(req.payload === undefined ? {} : { payload: req.payload }),
        });
        const refused = res.statusCode >= 400;
        used = !refused;
        expect(res.statusCode < 500 ? 'no server error' : `${res.statusCode} ${res.body.slice(0, 300)}`).toBe('no server error');
        if (refused) expectErrorBody(res.json(), res.statusCode);
        // Nothing saved half-way: a refused request changed nothing.
        expect(refused ? await fingerprint() : before).toEqual(before);
      }),
      { numRuns: RUNS_PER_ROUTE, examples: REQUIRED_CASES.map((m) => [m]) },
    );
  });
});

// PostgreSQL's integer column; a bigger number answered 500 (hardening issue, finding 2).
const INT32_MAX = 2 ** 31 - 1;

/** Every number and string a route accepts, as the document describes it, with what bounds it. */
function* inputs(schema: unknown, at: string): Generator<{ at: string; node: Record<string, unknown> }> {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  if (node.type === 'number' || node.type === 'integer' || node.type === 'string') yield { at, node };
  for (const [key, child] of Object.entries(node.properties ?? {})) yield* inputs(child, `${at}.${key}`);
  for (const list of [node.anyOf, node.oneOf, node.allOf]) if (Array.isArray(list)) for (const child of list) yield* inputs(child, at);
  if (node.items) yield* inputs(node.items, `${at}[]`);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') yield* inputs(node.additionalProperties, `${at}.*`);
}

describe('the bounds of what routes accept', () => {
  it('every number has a minimum and a maximum the database can hold, every string a length limit', () => {
    const unbounded: string[] = [];
    for (const [path, ops] of Object.entries(openapi.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const sources = [
          ...Object.values(op.requestBody?.content ?? {}).map((c) => ({ schema: c.schema, at: 'body' })),
          ...(op.parameters ?? []).map((p) => ({ schema: p.schema, at: p.name })),
        ];
        for (const { schema, at } of sources) {
          for (const { at: field, node } of inputs(schema, at)) {
            const where = `${method.toUpperCase()} ${path} ${field}`;
            if (node.type === 'string') {
              const fixed = node.format === 'uuid' || Array.isArray(node.enum) || node.const !== undefined;
              if (!fixed && typeof node.maxLength !== 'number') unbounded.push(`${where}: a string without maxLength`);
            } else {
              const { minimum, maximum } = node as { minimum?: number; maximum?: number };
              if (typeof minimum !== 'number' || typeof maximum !== 'number' || minimum < -INT32_MAX - 1 || maximum > INT32_MAX) {
                unbounded.push(`${where}: a number bounded ${String(minimum)}..${String(maximum)}, beyond a 32-bit integer column`);
              }
            }
          }
        }
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe('hostile files for the blanket certificate (a PDF by its bytes)', () => {
  const cases: [name: string, file: () => Promise<Buffer> | Buffer, reason: string][] = [
    ['a text file named .pdf', textFile, 'The blanket certificate of resale must be a PDF file. This file is a text file.'],
    ['a PNG named .pdf', smallPng, 'The blanket certificate of resale must be a PDF file. This file is a PNG image.'],
    ['a JPEG named .pdf', () => noisyJpeg(64, 64), 'The blanket certificate of resale must be a PDF file. This file is a JPEG image.'],
    ['a decompression-bomb PNG named .pdf', decompressionBombPng, 'The blanket certificate of resale must be a PDF file. This file is a PNG image.'],
    ['a PDF cut off half-way', () => minimalPdf().subarray(0, 40), 'This PDF is incomplete: the upload may have been cut off. Please upload it again.'],
    ['an empty file', () => Buffer.alloc(0), 'The blanket certificate of resale must be a PDF file. This file is empty.'],
  ];

  it.for(cases)('refuses %s with the reason, keeping nothing', async ([, file, reason]) => {
    const w = await makeWorld();
    const headers = { token: w.tokens.owner };
    const presigned = await t.app.inject({ method: 'POST', url: `/api/v2/lab_orders/${w.owner.guid}/create_presigned_url`, headers, payload: { guid: w.owner.guid, file_name: 'resale.pdf' } });
    const { signedUrl, key } = presigned.json<{ signedUrl: string; key: string }>();
    const put = await t.app.inject({ method: 'PUT', url: signedUrl, headers: { 'content-type': 'application/pdf' }, payload: await file() });
    expect(put.statusCode).toBe(200);
    const before = await fingerprint();
    const res = await t.app.inject({ method: 'POST', url: '/api/v2/accounts/blanket_certificate', headers, payload: { key } });
    expect(res.statusCode).toBe(422);
    expect(expectErrorBody(res.json(), 422).message).toBe(reason);
    // The refused upload itself is removed (hardening finding 4: refused uploads do not stay);
    // nothing else changed.
    const { storage_uploads: uploadsBefore, ...restBefore } = before;
    const { storage_uploads: uploadsAfter, ...restAfter } = await fingerprint();
    expect(restAfter).toEqual(restBefore);
    expect(Number(uploadsAfter?.split(':')[0])).toBe(Number(uploadsBefore?.split(':')[0]) - 1);
    const left = await t.db.execute(sql`select 1 from storage_uploads where key = ${key}`);
    expect(Array.isArray(left) ? left : (left as { rows: unknown[] }).rows).toEqual([]);
  });

  it('keeps path traversal out of storage keys, whatever the file is called', async () => {
    const w = await makeWorld();
    const headers = { token: w.tokens.owner };
    for (const name of TRAVERSAL.map((p) => `${p}.pdf`)) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v2/lab_orders/${w.owner.guid}/create_presigned_url`, headers, payload: { guid: w.owner.guid, file_name: name } });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ key: string }>().key).toMatch(new RegExp(`^incoming/certificates/${w.owner.guid}/[0-9a-f-]{36}\\.pdf$`));
    }
    for (const key of [`incoming/certificates/${w.owner.guid}/../../secret.pdf`, `incoming/certificates/${w.other.guid}/${w.owner.guid}.pdf`, `certificates/${w.owner.guid}/${w.owner.guid}.pdf`, '/etc/passwd', w.ownerCertificateKey.replace('.pdf', '.pdf/..')]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v2/accounts/blanket_certificate', headers, payload: { key } });
      expect(res.statusCode).toBe(404);
      expectErrorBody(res.json(), 404);
    }
  });
});
