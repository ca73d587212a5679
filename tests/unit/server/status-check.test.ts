import { describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/client.ts';
import { STATUS_PING_FRESH_MS, createStatusCheck } from '../../../server/services/status-service.ts';

/** A database whose ping answers or fails as the test says, counting the pings. */
function fakeDatabase() {
  const state = { up: true, pings: 0 };
  const db = {
    execute: async () => {
      state.pings++;
      if (!state.up) throw new Error('connection refused');
      return { rows: [{ '?column?': 1 }] };
    },
  } as unknown as Db;
  return { db, state };
}

describe('GET /status: the database ping', () => {
  it('asks the database at most once per window, however many calls come in, at once or one after another', async () => {
    const { db, state } = fakeDatabase();
    const clock = { now: new Date('2026-11-22T10:00:00Z') };
    const status = createStatusCheck({ db, now: () => clock.now });
    await Promise.all(Array.from({ length: 20 }, () => status()));
    await status();
    expect(state.pings).toBe(1);
    clock.now = new Date(clock.now.getTime() + STATUS_PING_FRESH_MS);
    expect(await status()).toMatchObject({ status: 'ok', database: 'ok', server_time: clock.now.toISOString() });
    expect(state.pings).toBe(2);
  });

  it('answers 503 once the database is gone, at the latest one window after its last answer, and at every call while it stays gone', async () => {
    const { db, state } = fakeDatabase();
    const clock = { now: new Date('2026-11-22T10:00:00Z') };
    const status = createStatusCheck({ db, now: () => clock.now });
    await status();
    state.up = false;
    clock.now = new Date(clock.now.getTime() + STATUS_PING_FRESH_MS);
    for (let i = 0; i < 3; i++) {
      await expect(status()).rejects.toMatchObject({ status: 503, className: 'ServiceUnavailable' });
    }
    expect(state.pings).toBe(4);
    state.up = true;
    expect(await status()).toMatchObject({ status: 'ok' });
  });
});
