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
