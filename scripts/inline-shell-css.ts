import type { Plugin } from 'vite';

// The stylesheet link Vite writes into index.html for the app's own CSS.
const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g;

/**
 * Writes the app's global stylesheet into index.html instead of linking it (it is small): the
 * first paint no longer waits for a request queued with the scripts' (Lighthouse counted the link
 * as render-blocking: docs/performance-notes.md §3).
 * The CSP allows inline styles (server/http/security-headers.ts); the stylesheet has no url()
 * or @import that would resolve differently from the page. Screens' own stylesheets stay files,
 * loaded with their code.
 */
export const inlineShellCss = (): Plugin => ({
  name: 'lab-inline-shell-css',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      return html.replace(STYLESHEET_LINK, (link, fileName: string) => {
        const asset = ctx.bundle?.[fileName];
        if (asset?.type !== 'asset' || typeof asset.source !== 'string') return link;
        if (/url\(|@import/.test(asset.source)) return link;
        return `<style>${asset.source.replace(/<\/style/gi, '<\\/style')}</style>`;
      });
    },
  },
});
