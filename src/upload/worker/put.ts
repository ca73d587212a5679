import type { ProgressBatch, PutRequest, PutResult } from '../shared/protocol.ts';

/**
 * No byte accepted for 30 s means a dead connection that the browser has not noticed yet (a
 * suspended laptop, a Wi-Fi that lost its route): abort and let the queue try again (Uppy's
 * fetcher uses the same 30 s).
 */
export const STALL_MS = 30_000;
/** Progress reaches the page at most 4 times a second, in one message for every request. */
export const PROGRESS_EVERY_MS = 250;

const inFlight = new Map<string, { xhr: XMLHttpRequest; loaded: number }>();
let listener: ((batch: ProgressBatch) => void) | null = null;
let flushTimer: ReturnType<typeof setTimeout> | null = null;
const dirty = new Set<string>();

export function setProgressListener(fn: (batch: ProgressBatch) => void): void {
  listener = fn;
}

function flushSoon(): void {
  if (flushTimer !== null) return;
  flushTimer = setTimeout(() => {
    flushTimer = null;
    const batch: ProgressBatch = [...dirty].map((id) => [id, inFlight.get(id)?.loaded ?? 0]);
    dirty.clear();
    if (batch.length) listener?.(batch);
  }, PROGRESS_EVERY_MS);
}

/** The error body's class and message: the lab's JSON (docs/api.md §2), or S3's XML. */
function describeError(text: string): { className: string | null; message: string | null } {
  try {
    const body = JSON.parse(text) as { error?: { class_name?: string; user_message?: { message?: string }; developer_message?: string } };
    if (body.error) return { className: body.error.class_name ?? null, message: body.error.user_message?.message ?? body.error.developer_message ?? null };
  } catch {
    // Not JSON: S3 answers XML.
  }
  const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1] ?? null;
  return { className: tag('Code'), message: tag('Message') };
}

/**
 * A PUT through XMLHttpRequest, not fetch: fetch reports no upload progress (streamed request
 * bodies need HTTP/2, which the embedded server does not speak), and a person watching 60 MB go
 * needs the bar to move. XHR exists in dedicated workers.
 */
export function put(req: PutRequest): Promise<PutResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    let stalled = false;
    let stallTimer: ReturnType<typeof setTimeout> | null = null;
    const armStall = () => {
      if (stallTimer !== null) clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, STALL_MS);
    };
    const finish = (result: PutResult) => {
      if (stallTimer !== null) clearTimeout(stallTimer);
      inFlight.delete(req.id);
      dirty.delete(req.id);
      resolve(result);
    };
    const failed = (reason: 'network' | 'stalled' | 'aborted'): PutResult => ({ ok: false, status: 0, reason, className: null, message: null });

    xhr.open('PUT', new URL(req.url, self.location.origin).href);
    for (const [name, value] of Object.entries(req.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (e) => {
      const entry = inFlight.get(req.id);
      if (entry) entry.loaded = e.loaded;
      dirty.add(req.id);
      flushSoon();
      armStall();
    });
    xhr.addEventListener('progress', armStall);
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        finish({ ok: true, status: xhr.status, etag: xhr.getResponseHeader('ETag') });
      } else {
        finish({ ok: false, status: xhr.status, reason: 'http', ...describeError(xhr.responseText) });
      }
    });
    xhr.addEventListener('error', () => finish(failed('network')));
    xhr.addEventListener('abort', () => finish(failed(stalled ? 'stalled' : 'aborted')));
    inFlight.set(req.id, { xhr, loaded: 0 });
    armStall();
    // A slice without a type: no Content-Type unless the signed headers name one.
    xhr.send(req.file.slice(req.start, req.end));
  });
}

export function abort(ids: string[]): void {
  for (const id of ids) inFlight.get(id)?.xhr.abort();
}
