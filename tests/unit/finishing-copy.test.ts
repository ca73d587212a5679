import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHARED_OWNER } from '../../src/offline/cached-read.ts';
import { useConnectivity } from '../../src/offline/connectivity.ts';
import { labDb } from '../../src/offline/db.ts';
import { forgetKeptFinishing, keepFinishingForOffline, readFinishingGroups } from '../../src/offline/finishing-copy.ts';

const groupsOf = (size: string) => ({ data: [{ finishing_category: 'mount', services: [{ guid: `mount-${size}` }] }] });

/** The sizes the lab was asked about, in order; `down` sizes get no answer (the link drops). */
let asked: string[] = [];
function serve(down: (size: string) => boolean = () => false) {
  asked = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const size = /products\/([^/]+)\/finishing_services/.exec(url)?.[1] ?? '';
    asked.push(size);
    if (down(size)) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(groupsOf(size)), { status: 200 });
  });
}

const keptCopy = async (size: string) => (await labDb.cachedReads.get(`${SHARED_OWNER}|finishing_services|${size}`))?.payload;

afterEach(async () => {
  vi.unstubAllGlobals();
  forgetKeptFinishing();
  useConnectivity.setState({ browserOnline: true, labReachable: null });
  await labDb.cachedReads.clear();
});

describe("print sizes' finishing kept on the device in the background", () => {
  it('keeps every size once, in the copy the builder reads offline', async () => {
    serve();
    await keepFinishingForOffline(['a', 'b', 'c']);
    await keepFinishingForOffline(['b', 'c', 'd']);
    expect(asked).toEqual(['a', 'b', 'c', 'd']);
    expect(await keptCopy('c')).toEqual(groupsOf('c'));

    // Offline, a size never chosen offers its finishing from that copy.
    serve(() => true);
    const read = await readFinishingGroups('d');
    expect(read.cachedAt).not.toBeNull();
    expect(read.data).toEqual(groupsOf('d'));
  });

  it("the chosen paper's sizes go before those already waiting", async () => {
    serve();
    const all = keepFinishingForOffline(['a', 'b', 'c', 'd']);
    void keepFinishingForOffline(['d', 'c'], true);
    await all;
    // 'a' may already be on its way when the paper is chosen; 'd' and 'c' come next.
    expect(asked.slice(asked.indexOf('d'), asked.indexOf('d') + 2)).toEqual(['d', 'c']);
    expect(asked.indexOf('d')).toBeLessThanOrEqual(1);
    expect([...asked].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('stops when the connection goes, and goes on from there once called online again', async () => {
    serve((size) => size === 'b');
    await keepFinishingForOffline(['a', 'b', 'c']);
    expect(asked).toEqual(['a', 'b']);
    expect(await keptCopy('b')).toBeUndefined();
    // The failed round trip told the connectivity store: nothing more is asked while offline.
    expect(useConnectivity.getState().labReachable).toBe(false);
    await keepFinishingForOffline(['c']);
    expect(asked).toEqual(['a', 'b']);

    useConnectivity.setState({ labReachable: true });
    serve();
    await keepFinishingForOffline([]);
    expect(asked).toEqual(['b', 'c']);
    expect(await keptCopy('c')).toEqual(groupsOf('c'));
  });

  it('a size the lab refuses is not asked again in the background', async () => {
    asked = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify({ errors: [{ title: 'Not found', detail: 'No such print size.' }] }), { status: 404 });
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await keepFinishingForOffline(['gone']);
    await keepFinishingForOffline(['gone']);
    expect(asked).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('a size read live when chosen is not asked again', async () => {
    serve();
    await readFinishingGroups('x');
    await keepFinishingForOffline(['x', 'y']);
    expect(asked).toEqual(['x', 'y']);
  });
});
