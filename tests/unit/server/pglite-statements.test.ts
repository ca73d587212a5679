import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatements } from '../../../server/db/pglite-statements.ts';

/** The prepared path answers exactly as PGlite's own query() does. */
describe('PGlite queries as prepared statements', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec(`
      create table t (id int primary key, name text not null, born timestamptz, tags jsonb, data bytea);
      insert into t values (1, 'Ansel', '1902-02-20T00:00:00Z', '["a"]', '\\x0102'), (2, 'Dorothea', null, null, null);
    `);
    // Creating a PGlite database takes seconds of CPU; on two busy cores, more than the 10 s default.
  }, 60_000);
  afterAll(() => client.close());

  const preparedCount = async () => (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]?.n;

  it('answers rows, fields and counts as query() does, in object and array mode, with nulls', async () => {
    const query = preparedStatements(client);
    for (const rowMode of ['object', 'array'] as const) {
      for (const id of [1, 2]) {
        const text = 'select id, name, born, tags, data from t where id = $1';
        const fast = await query(text, [id], { rowMode });
        const own = await client.query(text, [id], { rowMode });
        expect(fast.rows).toEqual(own.rows);
        expect(fast.fields).toEqual(own.fields);
        expect(fast.affectedRows).toBe(own.affectedRows);
      }
    }
  });

  it('reads text as written: multi-byte characters, empty text apart from NULL, many columns and rows', async () => {
    const query = preparedStatements(client);
    const text = "select $1::text as a, ''::text as b, null::text as c, g as n, repeat('é', g) as d from generate_series(1, 300) g";
    const fast = await query(text, ['Sebastião 📷 «Gênesis»'], { rowMode: 'object' });
    expect(fast.rows).toEqual((await client.query(text, ['Sebastião 📷 «Gênesis»'])).rows);
    expect(fast.rows[0]).toEqual({ a: 'Sebastião 📷 «Gênesis»', b: '', c: null, n: 1, d: 'é' });
    expect(fast.rows).toHaveLength(300);
  });

  it('sends parameters through the client serializers (json, bytes, dates, null) and counts changed rows', async () => {
    const query = preparedStatements(client);
    const inserted = await query('insert into t (id, name, born, tags, data) values ($1, $2, $3, $4, $5) returning id, tags, data', [
      3,
      'Imogen',
      new Date('1883-04-12T00:00:00Z'),
      { studio: 'Seattle' },
      new Uint8Array([7, 8, 9]),
    ]);
    expect(inserted.rows).toEqual([{ id: 3, tags: { studio: 'Seattle' }, data: new Uint8Array([7, 8, 9]) }]);
    expect(inserted.affectedRows).toBe(1);
    const updated = await query('update t set born = $1 where id >= $2', [null, 2]);
    expect(updated.affectedRows).toBe(2);
    expect(updated.rows).toEqual([]);
    expect((await client.query('select born from t where id = 3')).rows).toEqual([{ born: null }]);
  });

  it('throws the database error with its code, query and params, and stays usable', async () => {
    const query = preparedStatements(client);
    const failed = await query('insert into t (id, name) values ($1, $2)', [1, 'Again']).catch((err: unknown) => err);
    expect(failed).toMatchObject({ code: '23505', query: 'insert into t (id, name) values ($1, $2)', params: [1, 'Again'] });
    const syntax = await query('selec 1').catch((err: unknown) => err);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await query('select name from t where id = $1', [1])).rows).toEqual([{ name: 'Ansel' }]);
  });

  it('prepares each text once, and keeps at most the cap, closing the least recently used', async () => {
    const before = await preparedCount();
    const query = preparedStatements(client, { maxStatements: 2 });
    await query('select 1 as a');
    await query('select 1 as a');
    expect(await preparedCount()).toBe((before ?? 0) + 1);
    await query('select 2 as b');
    await query('select 1 as a');
    await query('select 3 as c');
    // 'select 2' was the least recently used: closed; the other two stay.
    expect(await preparedCount()).toBe((before ?? 0) + 2);
    const names = (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
    expect(names).toContain('select 1 as a');
    expect(names).toContain('select 3 as c');
    expect(names).not.toContain('select 2 as b');
  });

  it('prepares again a statement whose table changed shape under it', async () => {
    const query = preparedStatements(client);
    await client.exec('create table shape (id int, label text); insert into shape values (1, $$one$$);');
    expect((await query('select * from shape')).rows).toEqual([{ id: 1, label: 'one' }]);
    await client.exec('alter table shape add column extra text default $$x$$;');
    expect((await query('select * from shape')).rows).toEqual([{ id: 1, label: 'one', extra: 'x' }]);
  });

  it('waits for a transaction in progress rather than running inside it', async () => {
    const query = preparedStatements(client);
    let outside: Promise<unknown> | undefined;
    await client.transaction(async (tx) => {
      await tx.query("update t set name = 'Changed' where id = 2");
      outside = query('select name from t where id = $1', [2]);
      let answered = false;
      void outside.then(() => (answered = true));
      // A later statement of the transaction is answered while the outside query still waits.
      await tx.query('select 1');
      expect(answered).toBe(false);
      await tx.rollback();
    });
    expect(await outside).toMatchObject({ rows: [{ name: 'Dorothea' }] });
  });
});
