import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/errors.ts';
import { LabDatabase } from '../../../src/offline/db.ts';
import { UploadQueue } from '../../../src/upload/page/upload-queue.ts';
import { Sender } from '../../../src/upload/worker/upload-sender.ts';
import type { Reachability } from '../../../src/upload/page/upload-reachability.ts';
import { useUploadProgress } from '../../../src/upload/page/upload-progress.ts';
import { FILES_PER_STORE, queueFiles } from '../../../src/upload/shared/upload-store.ts';
import { FakeLab, FakeWorker, PART } from '../fixtures/fake-lab.ts';

const OWNER = 'ann@example.com';
const ORDER = 'order-1';
const MB = 1024 * 1024;

/** A JPEG-looking file of `size` bytes whose content depends on `seed` (so checksums differ). */
function jpeg(name: string, size: number, seed = name.length): File {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096 + seed) % 251;
  bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return new File([bytes], name, { type: 'image/jpeg', lastModified: 1_700_000_000_000 + seed });
}
const text = (name: string) => new File(['Notes for the lab: matte, please.'], name, { type: 'image/jpeg' });

class Switch implements Reachability {
  on = true;
  readonly #listeners = new Set<(r: boolean) => void>();
  reachable = () => this.on;
  subscribe(l: (r: boolean) => void) {
    this.#listeners.add(l);
    return () => this.#listeners.delete(l);
  }
  probe = async () => {};
  worthProbing = () => false;
  noAnswers = 0;
  noAnswer = () => {
    this.noAnswers += 1;
    this.set(false);
  };
  set(on: boolean) {
    this.on = on;
    for (const l of this.#listeners) l(on);
  }
}

let n = 0;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).toReversed()) await fn();
});

function setup(opts: { db?: LabDatabase; lab?: FakeLab; reachability?: Switch } = {}) {
  const db = opts.db ?? new LabDatabase(`queue-test-${++n}`);
  const lab = opts.lab ?? new FakeLab();
  const worker = new FakeWorker(lab, db);
  const reachability = opts.reachability ?? new Switch();
  // random 0: every backoff is 0 ms, so retries happen at once in tests.
  // The sender runs in-process here; in the app it is the upload worker's (upload-worker-bridge).
  // Through the worker at each call, so a test may hold the checksum back by replacing it.
  const sender = new Sender({ db, api: lab, worker, sha256: (file) => worker.sha256(file) });
  const queue = new UploadQueue(OWNER, { db, worker, sender, reachability, random: () => 0 });
  if (!opts.db) cleanup.push(() => db.delete());
  cleanup.push(() => queue.stop());
  return { db, lab, worker, queue, reachability };
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeout = 5000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout, interval: 5 },
  );
}

const settled = (db: LabDatabase) => until(async () => (await db.uploads.count()) === 0, 'the queue to empty');

describe('upload queue', () => {
  it('sends small photos in one PUT and large ones in parts, rejects a text file named .jpg with its reason', async () => {
    const { db, lab, queue } = setup();
    const added = await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 300_000), text('notes.jpg'), jpeg('big.jpg', 21 * MB), jpeg('b.jpg', 2 * MB)]);
    expect(added).toEqual({ ok: true, queued: 4, rejected: 0, alreadyQueued: 0 });
    queue.start();
    await settled(db);

    expect((await db.photos.toArray()).map((p) => p.name).sort()).toEqual(['a.jpg', 'b.jpg', 'big.jpg']);
    expect(await db.rejections.toArray()).toMatchObject([{ name: 'notes.jpg', reason: 'notes.jpg is not a JPEG or PNG photo.', orderGuid: ORDER }]);
    // Nothing of the rejected file was sent, and its bytes left the device's queue.
    expect(lab.calls.filter((c) => (c.body as { photo_file_name?: string }).photo_file_name === 'notes.jpg')).toEqual([]);
    expect(await db.uploadFiles.count()).toBe(0);
    // 21 MiB in 5 MiB parts: 5 part PUTs, each once; then complete with the parts in order.
    const bigParts = lab.puts.filter((p) => p.part !== undefined);
    expect(bigParts.map((p) => p.part).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(bigParts.reduce((s, p) => s + p.bytes, 0)).toBe(21 * MB);
    expect(lab.count('complete')).toBe(1);
    expect(lab.count('confirm')).toBe(3);
    // Thumbnails moved to the photos table with the photo.
    expect((await db.photos.toArray()).every((p) => p.thumbnail instanceof Blob)).toBe(true);
    expect(await db.uploadThumbnails.count()).toBe(0);
  });

  it('a second copy of a photo already in the order is done without sending', async () => {
    const { db, lab, queue } = setup();
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 100_000, 7)]);
    queue.start();
    await settled(db);
    const sent = lab.puts.length;
    await queueFiles(db, OWNER, ORDER, [jpeg('a-copy.jpg', 100_000, 7)]);
    queue.kick();
    await settled(db);
    expect(lab.puts.length).toBe(sent);
    expect(await db.photos.count()).toBe(1);
  });

  it('sends a photo before its checksum is known, and confirms it with the checksum once it is', async () => {
    const { db, lab, worker, queue } = setup();
    const photo = jpeg('a.jpg', 300_000, 11);
    const expected = createHash('sha256').update(new Uint8Array(await photo.arrayBuffer())).digest('hex');
    const hash = worker.sha256;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    worker.sha256 = async (file) => {
      await held;
      return hash(file);
    };
    await queueFiles(db, OWNER, ORDER, [photo]);
    queue.start();
    // The PUT went while the checksum was still held back; the confirmation waits for it.
    await until(async () => (await db.uploads.toArray())[0]?.state === 'confirming', 'the PUT stored');
    expect(lab.calls.find((c) => c.name === 'create')?.body).not.toHaveProperty('checksum');
    expect(lab.count('confirm')).toBe(0);
    release();
    await settled(db);
    expect(lab.calls.find((c) => c.name === 'confirm')?.body).toMatchObject({ checksum: expected });
    expect((await db.photos.toArray()).map((p) => p.checksum)).toEqual([expected]);
  });

  it('a tab closed while the checksum was on its way resumes after the reload, sending nothing twice', async () => {
    const lab = new FakeLab();
    const first = setup({ lab });
    // The first tab never finishes the checksum: it closes first.
    first.worker.sha256 = () => new Promise<string>(() => {});
    const photo = jpeg('b.jpg', 300_000, 12);
    await queueFiles(first.db, OWNER, ORDER, [photo]);
    first.queue.start();
    await until(async () => (await first.db.uploads.toArray())[0]?.state === 'confirming', 'the PUT stored');
    first.queue.stop();
    expect((await first.db.uploads.toArray())[0]?.checksum).toBeUndefined();
    const sent = lab.puts.length;

    const second = setup({ db: first.db, lab });
    second.queue.start();
    await settled(first.db);
    const expected = createHash('sha256').update(new Uint8Array(await photo.arrayBuffer())).digest('hex');
    expect(lab.puts.length).toBe(sent);
    expect(lab.calls.filter((c) => c.name === 'confirm').map((c) => (c.body as { checksum?: string }).checksum)).toEqual([expected]);
    expect(await first.db.photos.count()).toBe(1);
    await first.db.delete();
  });

  it('resumes after a reload from the first missing part, with the same uploadId, re-sending no finished part', async () => {
    const lab = new FakeLab();
    // The connection drops after two parts got through.
    let through = 0;
    lab.storageFault = () => (through++ >= 2 ? { ok: false, status: 0, reason: 'network', className: null, message: null } : null);
    const first = setup({ lab });
    await queueFiles(first.db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    first.queue.start();
    // The first PUT without an answer tells the store the lab is out of reach: the queue holds.
    await until(async () => (await first.db.uploadParts.count()) === 2 && lab.puts.length >= 3 && !first.reachability.on, 'two parts, then no answer');
    first.queue.stop();
    const sentBefore = (await first.db.uploadParts.toArray()).map((p) => p.partNumber);
    const row = await first.db.uploads.toArray();
    expect(row).toMatchObject([{ state: 'uploading', uploadId: 'up-1' }]);

    // The page reloads: a new queue on the same database, the network back.
    lab.storageFault = () => null;
    const second = setup({ db: first.db, lab });
    second.queue.start();
    await settled(first.db);
    const okParts = lab.puts.filter((p) => p.status === 200).map((p) => p.part);
    expect(okParts.sort()).toEqual([1, 2, 3, 4, 5]);
    // The fresh URLs were asked for the missing parts only, of the same upload.
    const missing = [1, 2, 3, 4, 5].filter((p) => !sentBefore.includes(p));
    expect(lab.calls.filter((c) => c.name === 'renew').map((c) => c.body)).toEqual([{ uploadId: 'up-1', part_numbers: missing }]);
    expect(lab.count('create')).toBe(1);
    await first.db.delete();
  });

  it('renews an expired part URL without restarting the file', async () => {
    const lab = new FakeLab();
    let expiredOnce = false;
    lab.storageFault = (req, target) => {
      if (target.part === 3 && !expiredOnce) {
        expiredOnce = true;
        return { ok: false, status: 403, reason: 'http', className: 'SignatureExpired', message: 'This link has expired.' };
      }
      return null;
    };
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await settled(db);
    expect(lab.calls.filter((c) => c.name === 'renew').map((c) => c.body)).toEqual([{ uploadId: 'up-1', part_numbers: [3] }]);
    expect(lab.puts.filter((p) => p.status === 200).map((p) => p.part).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(lab.count('create')).toBe(1);
    expect(await db.photos.count()).toBe(1);
  });

  it('backs off from a busy server and fails the file after the last attempt; retry sends it', async () => {
    const lab = new FakeLab();
    lab.apiFault = (name) => (name === 'create' ? ApiError.fromBody({ error: { status: 503, class_name: 'Unavailable', user_message: { message: 'The lab is busy.' } } }, 503) : null);
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000)]);
    queue.start();
    await until(async () => (await db.uploads.toArray())[0]?.state === 'failed', 'the file to fail');
    expect(lab.count('create')).toBe(8);
    expect(await db.uploads.toArray()).toMatchObject([{ state: 'failed', failedFrom: 'ready', error: 'The lab is busy.' }]);

    lab.apiFault = () => null;
    await queue.retry((await db.uploads.toArray())[0]!.id);
    await settled(db);
    expect(await db.photos.count()).toBe(1);
  });

  it('waits for a connection instead of failing, and goes as soon as the lab is back', async () => {
    const reachability = new Switch();
    reachability.on = false;
    const { db, lab, queue } = setup({ reachability });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000)]);
    queue.start();
    await until(() => useUploadProgress.getState().waitingForConnection, 'waiting for a connection');
    // Checked and thumbnailed offline, nothing sent.
    expect((await db.uploads.toArray())[0]?.state).toBe('ready');
    expect(await db.uploadThumbnails.count()).toBe(1);
    expect(lab.calls).toEqual([]);
    reachability.set(true);
    await settled(db);
    expect(useUploadProgress.getState().waitingForConnection).toBe(false);
    expect(await db.photos.count()).toBe(1);
  });

  it('a refusal at the confirmation lists the file as rejected with the server reason', async () => {
    const lab = new FakeLab();
    lab.apiFault = (name) =>
      name === 'confirm' ? ApiError.fromBody({ error: { status: 422, class_name: 'ValidationError', user_message: { message: 'a.jpg is a decompression bomb.' } } }, 422) : null;
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000)]);
    queue.start();
    await settled(db);
    expect(await db.rejections.toArray()).toMatchObject([{ name: 'a.jpg', reason: 'a.jpg is a decompression bomb.' }]);
    expect(await db.photos.count()).toBe(0);
  });

  it('a key storage says is already confirmed goes straight to the confirmation', async () => {
    const lab = new FakeLab();
    lab.storageFault = () => ({ ok: false, status: 409, reason: 'http', className: 'Conflict', message: 'Already confirmed.' });
    lab.apiFault = () => null;
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000)]);
    queue.start();
    // The fake's storage kept nothing, so the confirmation refuses: what matters is the step taken.
    await settled(db);
    expect(lab.count('confirm')).toBe(1);
  });

  it('an order no longer open fails each file with the server message', async () => {
    const lab = new FakeLab();
    lab.orderOpen = false;
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000), jpeg('b.jpg', 1000, 99)]);
    queue.start();
    await until(async () => (await db.uploads.toArray()).every((u) => u.state === 'failed'), 'both to fail');
    expect((await db.uploads.toArray()).map((u) => u.error)).toEqual([
      'Order needs to be in open status to upload photos.',
      'Order needs to be in open status to upload photos.',
    ]);
  });

  it('pause stops a file where it is; resume continues from its missing parts', async () => {
    const lab = new FakeLab();
    const { db, worker, queue } = setup({ lab });
    let open: () => void = () => {};
    worker.gate = new Promise((r) => (open = r));
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await until(async () => (await db.uploads.toArray())[0]?.state === 'uploading', 'the upload to start');
    const id = (await db.uploads.toArray())[0]!.id;
    await until(() => worker.aborted.size === 0 && lab.calls.length > 0, 'parts in flight');
    await queue.pause([id]);
    expect(worker.aborted.size).toBeGreaterThan(0);
    open();
    worker.gate = null;
    // Every PUT begun has run its course (a PUT begun after the pause would be among them).
    await until(() => worker.unsettled === 0, 'the held PUTs to end');
    expect(lab.puts.filter((p) => p.status === 200)).toEqual([]);
    expect((await db.uploads.get(id))?.paused).toBe(1);

    await queue.resume([id]);
    await settled(db);
    expect(lab.puts.filter((p) => p.status === 200).map((p) => p.part).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('a dropped link aborts the PUTs in flight and holds, not failing; back online, the file goes on from its missing parts', async () => {
    const lab = new FakeLab();
    const { db, worker, queue, reachability } = setup({ lab });
    let open: () => void = () => {};
    worker.gate = new Promise((r) => (open = r));
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await until(async () => (await db.uploads.toArray())[0]?.state === 'uploading' && worker.inFlight === 4, 'four parts in flight');
    reachability.set(false);
    expect(worker.aborted.size).toBe(4);
    open();
    worker.gate = null;
    await until(() => useUploadProgress.getState().waitingForConnection, 'waiting for a connection');
    // Every PUT begun has run its course (one begun while offline would be among them).
    await until(() => worker.unsettled === 0, 'the held PUTs to end');
    // Nothing got through, nothing started while offline, and the photo waits rather than fails.
    expect(lab.puts).toEqual([]);
    expect((await db.uploads.toArray()).map((u) => [u.state, u.paused])).toEqual([['uploading', 0]]);

    reachability.set(true);
    await settled(db);
    expect(lab.puts.map((p) => p.part).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(lab.count('create')).toBe(1);
  });

  it('a PUT without an answer tells the connectivity store: the queue holds, not failing, and goes on when the lab is back', async () => {
    const lab = new FakeLab();
    const { db, queue, reachability } = setup({ lab });
    let cut = true;
    lab.storageFault = () => (cut ? { ok: false, status: 0, reason: 'network', className: null, message: null } : null);
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await until(() => useUploadProgress.getState().waitingForConnection, 'waiting for a connection');
    expect(reachability.noAnswers).toBeGreaterThan(0);
    expect((await db.uploads.toArray()).map((u) => [u.state, u.paused])).toEqual([['uploading', 0]]);

    cut = false;
    reachability.set(true);
    await settled(db);
    expect(lab.puts.filter((p) => p.status === 200).map((p) => p.part).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('a part is in IndexedDB before the PUT that takes its slot starts', async () => {
    const lab = new FakeLab();
    const events: string[] = [];
    const { db, worker, queue } = setup({ lab });
    // When each part's row is committed, and when each PUT reaches storage, in one timeline.
    const table = db.uploadParts;
    const put = table.put.bind(table);
    table.put = (async (part: Parameters<typeof put>[0]) => {
      const key = await put(part);
      events.push(`recorded ${part.partNumber}`);
      return key;
    }) as typeof table.put;
    lab.storageFault = (_req, target) => {
      events.push(`start ${target.part}`);
      return null;
    };
    let open: () => void = () => {};
    worker.gate = new Promise((r) => (open = r));
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await until(() => worker.inFlight === 4, 'four parts in flight');
    // Parts 1-4 hold the four slots; part 5 goes in the slot the first finished part frees.
    worker.gate = null;
    open();
    await settled(db);
    expect(events.filter((e) => e.startsWith('start')).sort()).toEqual(['start 1', 'start 2', 'start 3', 'start 4', 'start 5']);
    expect(events.indexOf('start 5')).toBeGreaterThan(events.findIndex((e) => e.startsWith('recorded')));
  });

  it('asks again while the lab is still working on the same request (a reload sent it twice), however many times, and never fails the photo', async () => {
    const lab = new FakeLab();
    let busy = 12;
    lab.apiFault = (name) =>
      name === 'confirm' && busy-- > 0
        ? ApiError.fromBody({ error: { status: 409, class_name: 'RequestInProgress', user_message: { message: 'This request is still being processed. Try again in a moment.' } } }, 409)
        : null;
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000)]);
    queue.start();
    await settled(db);
    // More tries than a busy server gets (MAX_SERVER_ATTEMPTS), all with the same key.
    expect(lab.count('confirm')).toBe(13);
    expect(await db.photos.count()).toBe(1);
  });

  it.each(['create', 'complete', 'confirm'] as const)('a step whose key the lab took under another sign-in (signed out while its answer was on its way) goes again under a new key: %s', async (step) => {
    const lab = new FakeLab();
    // The step was carried out under its first key (in the session that ended), and the lab
    // refuses that key from the new session.
    const method = ({ create: 'createPhotoUpload', complete: 'completeUpload', confirm: 'confirmPhotograph' } as const)[step];
    const real = lab[method] as (...args: unknown[]) => Promise<unknown>;
    let refused = false;
    Object.assign(lab, {
      [method]: async (...args: unknown[]) => {
        const answer = await real(...args);
        if (refused) return answer;
        refused = true;
        throw ApiError.fromBody({ error: { status: 409, class_name: 'IdempotencyKeyReused', user_message: { message: 'This request was already sent from another sign-in of your account, so it was not made again.' } } }, 409);
      },
    });
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 21 * MB)]);
    queue.start();
    await settled(db);
    const keys = lab.calls.filter((c) => c.name === step).map((c) => c.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    expect(await db.photos.count()).toBe(1);
  });

  it('a forgotten multipart upload starts the file again with a new key', async () => {
    const lab = new FakeLab();
    let forgot = false;
    lab.storageFault = (_req, target) => {
      if (target.part === 2 && !forgot) {
        forgot = true;
        lab.uploads.get(target.key)!.done = true;
        return { ok: false, status: 404, reason: 'http', className: 'NotFound', message: 'No such upload.' };
      }
      return null;
    };
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await settled(db);
    expect(lab.count('create')).toBe(2);
    expect(await db.photos.count()).toBe(1);
  });

  it('a completion storage refuses (parts it does not have) sends the photo again from a new upload', async () => {
    const lab = new FakeLab();
    let refused = false;
    lab.apiFault = (name) => {
      if (name !== 'complete' || refused) return null;
      refused = true;
      return ApiError.fromBody({ error: { status: 400, class_name: 'InvalidPart', user_message: { message: 'One or more of the parts could not be found.' } } }, 400);
    };
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('big.jpg', 21 * MB)]);
    queue.start();
    await settled(db);
    expect(lab.count('create')).toBe(2);
    expect(lab.count('complete')).toBe(2);
    expect(await db.photos.count()).toBe(1);
  });

  it('refuses a batch the device has no room for, before keeping any of it', async () => {
    const db = new LabDatabase(`queue-test-${++n}`);
    cleanup.push(() => db.delete());
    const storage = { estimate: async () => ({ quota: 30 * MB, usage: 10 * MB }) };
    const result = await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 12 * MB), jpeg('b.jpg', 12 * MB, 3)], storage);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toMatch(/^There is not enough space on this device to keep these 2 photos \(25\.3 MB\) until they are uploaded: 19\.4 MB free\. Nothing was added\./);
    expect(await db.uploads.count()).toBe(0);
    expect(await db.uploadFiles.count()).toBe(0);
    const fits = await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 12 * MB)], storage);
    expect(fits.ok).toBe(true);
  });

  it('stores the first photo alone, then the batch a few photos at a time, and keeps none of it when a later group fails', async () => {
    const db = new LabDatabase(`queue-test-${++n}`);
    cleanup.push(() => db.delete());
    const files = Array.from({ length: FILES_PER_STORE * 2 + 3 }, (_, i) => jpeg(`p${i}.jpg`, 1000, i + 1));
    const seen: Promise<number>[] = [];
    const result = await queueFiles(db, OWNER, ORDER, files, undefined, () => seen.push(db.uploads.count()));
    expect(result).toEqual({ ok: true, queued: files.length, rejected: 0, alreadyQueued: 0 });
    // Each group was in the queue (for the scheduler to start on) when its call came; the first
    // photo alone, so it is sent while the next group is copied.
    expect(await Promise.all(seen)).toEqual([1, 1 + FILES_PER_STORE, 1 + FILES_PER_STORE * 2, files.length]);

    const other = new LabDatabase(`queue-test-${++n}`);
    cleanup.push(() => other.delete());
    const bulkAdd = other.uploadFiles.bulkAdd.bind(other.uploadFiles);
    let groups = 0;
    other.uploadFiles.bulkAdd = ((...args: Parameters<typeof bulkAdd>) => {
      if (++groups === 2) return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      return bulkAdd(...args);
    }) as typeof bulkAdd;
    const failed = await queueFiles(other, OWNER, ORDER, [...files, { name: 'huge.jpg', size: 209_715_201, type: 'image/jpeg', lastModified: 1 } as File]);
    expect(failed.ok).toBe(false);
    expect(await other.uploads.count()).toBe(0);
    expect(await other.uploadFiles.count()).toBe(0);
    expect(await other.rejections.count()).toBe(0);
  });

  it('skips a file already waiting in the order and rejects one above 200 MB at once', async () => {
    const db = new LabDatabase(`queue-test-${++n}`);
    cleanup.push(() => db.delete());
    await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000)]);
    const huge = { name: 'huge.jpg', size: 209_715_201, type: 'image/jpeg', lastModified: 1 } as File;
    const again = await queueFiles(db, OWNER, ORDER, [jpeg('a.jpg', 1000), huge]);
    expect(again).toEqual({ ok: true, queued: 0, rejected: 1, alreadyQueued: 1 });
    expect(await db.rejections.toArray()).toMatchObject([{ name: 'huge.jpg', reason: 'huge.jpg is larger than 200 MB. Photos can be at most 200 MB each.' }]);
  });

  it('checks two photos at once, each once, taking them in the order chosen', async () => {
    const { db, worker, queue } = setup();
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const files = Array.from({ length: 6 }, (_, i) => jpeg(`p${i}.jpg`, 1000, i + 1));
    const held: (() => void)[] = [];
    const inspect = worker.inspect.bind(worker);
    worker.inspect = async (file, name, side) => {
      running += 1;
      most = Math.max(most, running);
      order.push(name);
      // Held until two are being checked (or the last has begun): the overlap is made, not hoped for.
      await new Promise<void>((release) => {
        held.push(release);
        if (running === 2 || order.length === files.length) for (const go of held.splice(0)) go();
      });
      try {
        return await inspect(file, name, side);
      } finally {
        running -= 1;
      }
    };
    await queueFiles(db, OWNER, ORDER, files);
    queue.start();
    await settled(db);
    expect(most).toBe(2);
    expect(order).toEqual(files.map((f) => f.name));
  });

  it('a worker that fails leaves the photo queued; a photo whose stored bytes are unreadable fails with the reason', async () => {
    let checks = 0;
    const broken = (name: string) => async () => {
      checks += 1;
      const err = new Error('it broke');
      err.name = name;
      throw err;
    };
    const first = setup();
    const inspect = first.worker.inspect.bind(first.worker);
    first.worker.inspect = (file, name, side) => (name === 'a.jpg' ? broken('Error')() : inspect(file, name, side));
    // c.jpg is checked beside a.jpg, then sent: many steps of the queue after a.jpg's failure,
    // in which a worker that spins would have checked a.jpg again.
    await queueFiles(first.db, OWNER, ORDER, [jpeg('c.jpg', 1000, 2), jpeg('a.jpg', 1000)]);
    first.queue.start();
    await until(() => checks === 1, 'the check');
    await until(async () => (await first.db.uploads.toArray()).every((u) => u.name !== 'c.jpg'), 'c.jpg to be sent');
    // Not tried again at once (the worker must not spin), and not failed: still queued.
    expect(checks).toBe(1);
    expect((await first.db.uploads.toArray()).map((u) => u.state)).toEqual(['queued']);

    const second = setup();
    second.worker.inspect = broken('NotReadableError');
    await queueFiles(second.db, OWNER, ORDER, [jpeg('b.jpg', 1000)]);
    second.queue.start();
    await until(async () => (await second.db.uploads.toArray())[0]?.state === 'failed', 'the file to fail');
    expect((await second.db.uploads.toArray())[0]?.error).toBe('b.jpg could not be read on this device. Retry, or remove it and choose it again.');
  });

  it('sends at most four PUTs at once across files, and finishes the first file first', async () => {
    const lab = new FakeLab();
    let inFlight = 0;
    let most = 0;
    let begun = 0;
    const order: string[] = [];
    const held: (() => void)[] = [];
    // Three files of five parts.
    const puts = 15;
    lab.storageFault = async (_req, target) => {
      inFlight += 1;
      begun += 1;
      most = Math.max(most, inFlight);
      // Held until four are in flight (or the last has begun), then let go in the order they came.
      await new Promise<void>((release) => {
        held.push(release);
        if (inFlight === 4 || begun === puts) for (const go of held.splice(0)) go();
      });
      inFlight -= 1;
      order.push(target.key);
      return null;
    };
    const { db, queue } = setup({ lab });
    await queueFiles(db, OWNER, ORDER, [jpeg('one.jpg', 21 * MB, 1), jpeg('two.jpg', 21 * MB, 2), jpeg('three.jpg', 21 * MB, 3)]);
    queue.start();
    await settled(db);
    expect(most).toBe(4);
    expect(order.slice(0, 5).every((k) => k === order[0])).toBe(true);
    expect(PART).toBe(5 * MB);
    // 63 MB are read and checksummed for real: seconds of CPU on a busy machine, not a wait.
  }, 30_000);
});
