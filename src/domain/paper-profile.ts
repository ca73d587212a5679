/**
 * A paper's ICC output profile (issue 35): the rules the server checks on arrival and the admin
 * screen checks before sending.
 */

// A lab's printer profile holds its lookup tables for every intent (A2B and B2A at a few dozen
// grid points, 16-bit) and a gamut tag: a few MB at most. The cap keeps a mistaken file (a photo,
// an archive) from being stored and from being held whole in a phone's proof worker.
export const PAPER_PROFILE_MAX_BYTES = 8 * 1024 * 1024;

/** The device colour spaces of an output profile the proof can use. */
export const PROOF_COLOUR_SPACES = ['RGB', 'CMYK'] as const;
export type ProofColourSpace = (typeof PROOF_COLOUR_SPACES)[number];

/** The storage key of a profile: its SHA-256 (hex), so the file at a key never changes. */
export const paperProfileKey = (sha256Hex: string) => `paper-profiles/${sha256Hex}.icc`;
export const PAPER_PROFILE_KEY = /^paper-profiles\/[0-9a-f]{64}\.icc$/;

/** The file name part of the profile's key, the last segment of its URL. */
export const paperProfileFileName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/**
 * How the soft proof renders a photo through a paper's profile in each intent a studio can
 * choose: the proof worker builds its LittleCMS transforms from this, and the lab's check of an
 * arriving profile builds the same ones. Relative colorimetric maps the photo's black to the
 * paper's black (black-point compensation), as labs print; perceptual's own tables already
 * compress the tones to the paper's range, so no compensation is asked on top (libvips, which the
 * lab's derivatives use, asks none either). The paper is then shown on the display relative
 * colorimetric: its white as the screen's.
 */
export const PROOF_RENDERING = {
  relative: { intent: 'relative colorimetric', blackPointCompensation: true },
  perceptual: { intent: 'perceptual', blackPointCompensation: false },
} as const;
