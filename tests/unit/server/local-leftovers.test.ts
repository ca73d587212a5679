import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalStorage } from '../../../server/adapters/storage/local-storage.ts';

/** The embedded store after a kill -9: what the cut-short writes left is removed, nothing else. */
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function store() {
  const root = mkdtempSync(join(tmpdir(), 'lab-leftovers-'));
  roots.push(root);
  return { root, storage: new LocalStorage({ root, secret: 'test-secret' }) };
}

describe('LocalStorage.removeWriteLeftovers', () => {
  it("removes a killed upload's and a killed zip's temporary files, and keeps objects, their metadata and multipart parts", async () => {
    const { root, storage } = store();
    mkdirSync(join(root, 'photos/o1'), { recursive: true });
    mkdirSync(join(root, 'zips'), { recursive: true });
    const kept = ['photos/o1/a.jpg', 'photos/o1/a.jpg.meta.json', 'photos/o1/b.jpg.part-u1', 'photos/o1/b.jpg.part-u1.data', 'photos/o1/b.jpg.part-u1-1.etag'];
    const leftovers = ['photos/o1/c.jpg.upload-4242-1764259200000', 'zips/order.zip.writing-0a1b2c3d4e5f'];
    for (const name of [...kept, ...leftovers]) writeFileSync(join(root, name), 'x');

    expect(await storage.removeWriteLeftovers()).toBe(2);
    expect(kept.filter((name) => !existsSync(join(root, name)))).toEqual([]);
    expect(leftovers.filter((name) => existsSync(join(root, name)))).toEqual([]);
  });

  it('spares a write under way in this process, which then becomes its object', async () => {
    const { root, storage } = store();
    const body = new PassThrough();
    const writing = storage.putStream('zips/live.zip', body, 'application/zip');
    body.write('first half ');
    // Its temporary file is on disk, still being written.
    await vi.waitFor(() => expect(existsSync(join(root, 'zips')) && readdirSync(join(root, 'zips')).some((n) => n.includes('.writing-'))).toBe(true));
    expect(await storage.removeWriteLeftovers()).toBe(0);
    body.end('second half');
    await writing;
    expect(readFileSync(join(root, 'zips/live.zip'), 'utf8')).toBe('first half second half');
  });
});
