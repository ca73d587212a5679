/**
 * Renders the app icons of the web app manifest from public/logo.svg (run after changing the
 * logo: npx tsx scripts/make-icons.ts). The PNGs are committed, so builds need no image tools.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'public/logo.svg'));
const out = (name: string) => join(root, 'public/icons', name);
// The lab's ink colour, also the manifest's theme colour.
const BACKGROUND = '#1f2a36';

await sharp(svg, { density: 300 }).resize(192, 192).png().toFile(out('icon-192.png'));
await sharp(svg, { density: 600 }).resize(512, 512).png().toFile(out('icon-512.png'));
// Maskable icons keep their content inside the 80% safe zone; the rest is background.
const inner = await sharp(svg, { density: 600 }).resize(360, 360).png().toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: BACKGROUND } })
  .composite([{ input: inner, gravity: 'center' }])
  .png()
  .toFile(out('maskable-512.png'));
await sharp(svg, { density: 300 }).resize(180, 180).png().toFile(out('apple-touch-icon.png'));
console.log('icons written to public/icons');
