import { parse, type IccProfile } from 'icc';
import {
  INTENT_PERCEPTUAL,
  INTENT_RELATIVE_COLORIMETRIC,
  TYPE_RGBA_8,
  cmsFLAGS_BLACKPOINTCOMPENSATION,
  cmsFLAGS_COPY_ALPHA,
  cmsFLAGS_SOFTPROOFING,
  type Lcms,
} from 'lcms-wasm';
import { PAPER_PROFILE_MAX_BYTES, PROOF_RENDERING, type ProofColourSpace } from '../../src/domain/paper-profile.ts';

/** What the check learnt of a paper's profile. */
export interface CheckedProfile {
  colourSpace: ProofColourSpace;
  /** The profile's own description, for the lab's log. */
  description: string | null;
}

export type ProfileCheck = { ok: true; profile: CheckedProfile } | { ok: false; reason: string };

// The fixed ICC header; the tag table follows it (ICC.1 §7.2, §7.3).
const HEADER_BYTES = 128;
const TAG_ENTRY_BYTES = 12;

const refused = (reason: string): ProfileCheck => ({ ok: false, reason });

/**
 * Every tag of the table lies inside the file. The `icc` parser reads the header and the
 * description only; a table pointing past the end (a cut-off or damaged file) would parse there and
 * fail later in the browser's LittleCMS, so it is refused here.
 */
function tagTableProblem(bytes: Buffer): string | null {
  if (bytes.length < HEADER_BYTES + 4) return 'The file ends before its tag table.';
  const count = bytes.readUInt32BE(HEADER_BYTES);
  if (count === 0 || HEADER_BYTES + 4 + count * TAG_ENTRY_BYTES > bytes.length) return 'Its tag table is damaged.';
  for (let i = 0; i < count; i++) {
    const entry = HEADER_BYTES + 4 + i * TAG_ENTRY_BYTES;
    const offset = bytes.readUInt32BE(entry + 4);
    const size = bytes.readUInt32BE(entry + 8);
    if (offset < HEADER_BYTES || offset + size > bytes.length) return 'A tag lies outside the file: it is damaged or cut off.';
  }
  return null;
}

/**
 * LittleCMS opens the profile and builds the proof worker's transform through it (sRGB → paper →
 * sRGB, RGBA, soft proofing) in each intent of PROOF_RENDERING: a profile whose header and tags
 * read may still lack or garble the tables a transform needs, and every photographer's proof would
 * fail on it. The worker's gamut-check transform reads the same tables, so it is not built here:
 * it costs several times more, on the thread that answers requests.
 */
function littleCmsProblem(lcms: Lcms, bytes: Buffer): string | null {
  const printer = lcms.cmsOpenProfileFromMem(bytes, bytes.length);
  if (!printer) return 'LittleCMS cannot open this ICC profile: it is damaged.';
  const srgb = lcms.cmsCreate_sRGBProfile();
  try {
    for (const rendering of Object.values(PROOF_RENDERING)) {
      const intent = rendering.intent === 'relative colorimetric' ? INTENT_RELATIVE_COLORIMETRIC : INTENT_PERCEPTUAL;
      const flags = cmsFLAGS_SOFTPROOFING | cmsFLAGS_COPY_ALPHA | (rendering.blackPointCompensation ? cmsFLAGS_BLACKPOINTCOMPENSATION : 0);
      const transform = lcms.cmsCreateProofingTransform(srgb, TYPE_RGBA_8, srgb, TYPE_RGBA_8, printer, intent, INTENT_RELATIVE_COLORIMETRIC, flags);
      if (!transform) {
        return `LittleCMS cannot proof through this profile (${rendering.intent}): its colour tables are missing or damaged. Export the profile again from the profiling software.`;
      }
      lcms.cmsDeleteTransform(transform);
    }
    return null;
  } finally {
    lcms.cmsCloseProfile(srgb);
    lcms.cmsCloseProfile(printer);
  }
}

/**
 * A paper's ICC profile as it arrives (admin upload or catalogue file): it parses, it describes a
 * printer (device class 'prtr', an output profile: a monitor's or a camera's profile cannot say how
 * a paper prints), its device colour space is RGB or CMYK (what the proof worker transforms to),
 * it is at most PAPER_PROFILE_MAX_BYTES, and LittleCMS builds the proof through it.
 */
export function checkPaperProfile(bytes: Buffer, lcms: Lcms): ProfileCheck {
  if (bytes.length > PAPER_PROFILE_MAX_BYTES) return refused(`This profile is larger than ${PAPER_PROFILE_MAX_BYTES / (1024 * 1024)} MB.`);
  let info: IccProfile;
  try {
    info = parse(bytes);
  } catch {
    return refused('This file is not an ICC profile.');
  }
  const damaged = tagTableProblem(bytes);
  if (damaged) return refused(`This ICC profile cannot be read. ${damaged}`);
  if (info.deviceClass !== 'Printer') {
    return refused(`This is not a printer (output) profile: its class is ${info.deviceClass ?? 'unknown'}. Attach the profile the paper's printer was measured with.`);
  }
  const space = info.colorSpace?.trim();
  if (space !== 'RGB' && space !== 'CMYK') return refused(`This printer profile's colour space is ${space ?? 'unknown'}; the proof works with RGB and CMYK profiles.`);
  const unusable = littleCmsProblem(lcms, bytes);
  if (unusable) return refused(unusable);
  return { ok: true, profile: { colourSpace: space, description: info.description ?? null } };
}
