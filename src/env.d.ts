interface ImportMetaEnv {
  readonly VITE_PRICING_URL?: string;
  readonly VITE_MARKETING_URL?: string;
}

/** The build's version, defined by vite.config.ts. */
declare const __APP_VERSION__: string;
