import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { DEMO_ADMIN, ensureAdmin } from '../../server/services/admin-bootstrap.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the first admin', () => {
  it('creates the demo admin once when none is configured, and it can sign in', async () => {
    expect(await ensureAdmin(t.db, { admin: undefined })).toEqual({ ...DEMO_ADMIN, demo: true });
    expect(await ensureAdmin(t.db, { admin: undefined })).toBeNull();
    const res = await callApi(t.app, 'POST /login', { body: DEMO_ADMIN });
    expect(res.status).toBe(200);
    expect(res.json().is_admin).toBe(true);
  });

  it('creates the configured admin, and never overwrites an existing account', async () => {
    const admin = { email: 'Owner@Lab.example', password: 'a-long-secret' };
    expect(await ensureAdmin(t.db, { admin })).toEqual({ email: 'owner@lab.example', password: admin.password, demo: false });
    expect(await ensureAdmin(t.db, { admin: { ...admin, password: 'another-password' } })).toBeNull();
    const [row] = await t.db.select().from(users).where(eq(users.email, 'owner@lab.example'));
    expect(row?.isAdmin).toBe(true);
    const res = await callApi(t.app, 'POST /login', { body: admin });
    expect(res.status).toBe(200);
  });
});
