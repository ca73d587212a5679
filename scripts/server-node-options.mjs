/**
 * The Node options `npm start` gives the server (scripts/start.mjs), before any NODE_OPTIONS of
 * your own: a 1 GB heap limit, since V8's own limit lets garbage hold far more memory than the lab
 * uses (README.md#configure). The scale bench starts its servers with the same.
 */
export const SERVER_NODE_OPTIONS = '--max-old-space-size=1024';
