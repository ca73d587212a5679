/**
 * The page of the proof engine's harness (tests/e2e/proof-harness.ts): the real bridge and worker,
 * built by Vite as the app builds them, with helpers the tests and the bench call through
 * page.evaluate. The screens that show a proof are tested in the app itself.
 */
import { proofPhoto } from '../../../src/proof/page/proof-bridge.ts';
import type { ProofAsk } from '../../../src/proof/shared/proof-api.ts';
import { proofFile } from '../../../src/proof/worker/preview-pixels.ts';
import type { HarnessAnswer, HarnessApi, HarnessAsk } from '../proof-harness.ts';

const papers = new Map<string, ArrayBuffer>();

async function paperProfile(url: string): Promise<ArrayBuffer> {
  let bytes = papers.get(url);
  if (!bytes) {
    bytes = await (await fetch(url)).arrayBuffer();
    papers.set(url, bytes);
  }
  return bytes;
}

async function ask(a: HarnessAsk): Promise<ProofAsk> {
  const source = a.asBlob ? await (await fetch(a.source)).blob() : new URL(a.source, self.location.href).href;
  return { photo: a.photo, source, paper: { key: a.paper, name: a.paper, profile: await paperProfile(a.paper) }, intent: a.intent, gamutWarning: a.gamutWarning, gamutColour: a.gamutColour };
}

async function pixelsOf(blob: Blob): Promise<Uint8ClampedArray> {
  const image = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.drawImage(image, 0, 0);
  image.close();
  return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
}

/** Main-thread tasks longer than 50 ms (the Long Tasks API), since the page opened. */
const longTasks: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: true });

const harness: HarnessApi = {
  async proof(a: HarnessAsk, withPixels = true): Promise<HarnessAnswer> {
    const made = await ask(a);
    const started = performance.now();
    const answer = await proofPhoto(made);
    const ms = performance.now() - started;
    return { width: answer.width, height: answer.height, outOfGamut: answer.outOfGamut, ms, rgba: withPixels ? Array.from(await pixelsOf(answer.blob)) : [] };
  },
  /** Times `runs` proofs of one ask each made fresh (a new photo id, so nothing is cached). */
  async timeProofs(a: HarnessAsk, runs: number): Promise<{ ms: number[]; longestTask: number }> {
    const ms: number[] = [];
    longTasks.length = 0;
    for (let i = 0; i < runs; i++) ms.push((await harness.proof({ ...a, photo: `${a.photo}-${i}` }, false)).ms);
    return { ms, longestTask: Math.max(0, ...longTasks) };
  },
  async decodeAndEncode(url: string, runs: number) {
    const blob = await (await fetch(url)).blob();
    const decode: number[] = [];
    const file: number[] = [];
    const png: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const image = await createImageBitmap(blob, { colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(image.width, image.height);
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) throw new Error('no 2D canvas');
      ctx.drawImage(image, 0, 0);
      const data = ctx.getImageData(0, 0, image.width, image.height);
      image.close();
      decode.push(performance.now() - t);
      t = performance.now();
      proofFile(new Uint8Array(data.data.buffer), data.width, data.height);
      file.push(performance.now() - t);
      t = performance.now();
      const out = new OffscreenCanvas(data.width, data.height);
      out.getContext('2d')?.putImageData(data, 0, 0);
      await out.convertToBlob({ type: 'image/png' });
      png.push(performance.now() - t);
    }
    return { decode, file, png };
  },
};

(globalThis as unknown as { proofHarness: HarnessApi }).proofHarness = harness;
document.body.dataset['ready'] = 'yes';
