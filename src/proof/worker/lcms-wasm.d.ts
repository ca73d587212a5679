/**
 * The part of lcms-wasm (LittleCMS compiled to WebAssembly, no types of its own) the proof uses.
 * Handles are pointers into the module's memory: 0 means LittleCMS refused.
 */
declare module 'lcms-wasm' {
  export interface Lcms {
    cmsOpenProfileFromMem(bytes: Uint8Array, size: number): number;
    cmsCloseProfile(profile: number): void;
    cmsCreate_sRGBProfile(): number;
    cmsCreateLab4Profile(whitePoint: number[] | null): number;
    cmsGetColorSpace(profile: number): number;
    cmsGetDeviceClass?(profile: number): number;
    /** The layout of the profile's colour space with `bytes` a channel; 0 when it has none. */
    cmsFormatterForColorspaceOfProfile(profile: number, bytes: number, isFloat: number): number;
    cmsCreateTransform(input: number, inputFormat: number, output: number, outputFormat: number, intent: number, flags: number): number;
    cmsCreateProofingTransform(
      input: number,
      inputFormat: number,
      output: number,
      outputFormat: number,
      proofing: number,
      intent: number,
      proofingIntent: number,
      flags: number,
    ): number;
    cmsDeleteTransform(transform: number): void;
    /** Copies `pixels` into the module, transforms `count` pixels, and answers a copy of the result. */
    cmsDoTransform(transform: number, pixels: ArrayLike<number>, count: number): Uint8Array | Uint16Array | Float32Array;
  }
  export function instantiate(options?: { locateFile?: (name: string) => string }): Promise<Lcms>;
  export const TYPE_RGBA_8: number;
  export const TYPE_RGB_8: number;
  export const TYPE_RGB_16: number;
  export const TYPE_Lab_DBL: number;
  export const INTENT_PERCEPTUAL: number;
  export const INTENT_RELATIVE_COLORIMETRIC: number;
  export const cmsFLAGS_SOFTPROOFING: number;
  export const cmsFLAGS_GAMUTCHECK: number;
  export const cmsFLAGS_BLACKPOINTCOMPENSATION: number;
  export const cmsFLAGS_COPY_ALPHA: number;
  export const cmsSigRgbData: number;
  export const cmsSigCmykData: number;
}

declare module 'lcms-wasm/dist/lcms.wasm?url' {
  const url: string;
  export default url;
}
