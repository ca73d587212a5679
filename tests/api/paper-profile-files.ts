import sharp, { type Sharp } from 'sharp';

/**
 * ICC profiles for the paper-profile tests, made here (no download is possible): libvips's
 * built-in CMYK output profile (class 'prtr', the proof can use it) and sRGB's (class 'mntr', a
 * display profile: refused as not an output profile), each read back from an image sharp embedded
 * it in.
 */
async function embedded(image: Sharp): Promise<Buffer> {
  const icc = (await sharp(await image.jpeg().toBuffer()).metadata()).icc;
  if (!icc) throw new Error('sharp embedded no profile');
  return icc;
}

const grey = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } });

export const cmykPrinterProfile = () => embedded(grey().toColourspace('cmyk').withIccProfile('cmyk'));
export const srgbDisplayProfile = () => embedded(grey().withIccProfile('srgb'));

// The ICC tag table: after the 128-byte header, a count, then 12 bytes a tag (signature, offset, size).
const TAG_TABLE = 128;
const TAG_ENTRY = 12;

/**
 * The profile with its colour tables (A2B*, B2A*) renamed to a private tag: its header, its
 * description and its tag table still read, but LittleCMS has nothing to convert colours with,
 * the kind of file a broken export makes.
 */
export function withoutColourTables(profile: Buffer): Buffer {
  const copy = Buffer.from(profile);
  const count = copy.readUInt32BE(TAG_TABLE);
  for (let i = 0; i < count; i++) {
    const at = TAG_TABLE + 4 + i * TAG_ENTRY;
    const sig = copy.toString('latin1', at, at + 4);
    if (sig.startsWith('A2B') || sig.startsWith('B2A')) copy.write(`zz${sig.slice(2)}`, at, 'latin1');
  }
  return copy;
}
