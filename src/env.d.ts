interface ImportMetaEnv { readonly VITE_PRICING_URL?: string }
