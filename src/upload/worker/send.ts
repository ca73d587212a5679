/**
 * The sending loop inside the worker: one Sender (upload-sender.ts) on the worker's own
 * IndexedDB connection, the one API client (src/api/client.ts) with the token the page hands over,
 * and the worker's XHR PUTs. What the page must see leaves in batches (SendEvents) at most every
 * 250 ms, so the page's thread does nothing per part and nothing per progress event.
 */
import { setTokenSource, setUnauthorizedHandler } from '../../api/client.ts';
import { forwardErrors } from '../../api/error-reports.ts';
import { labDb } from '../../offline/db.ts';
import { labUploadApi } from './upload-api-port.ts';
import { Sender } from './upload-sender.ts';
import type { UploadEntry } from '../../offline/db.ts';
import type { SendEvents, SendOutcome } from '../shared/protocol.ts';
import { sha256Hex } from './checksum.ts';
import { abort, put, setProgressListener } from './put.ts';

/** The page hears of progress at most 4 times a second: a bar needs no more, the thread less. */
export const EVENTS_EVERY_MS = 250;

let token: string | null = null;
let listener: ((events: SendEvents) => void) | null = null;
let sender: Sender | null = null;

const bytes = new Map<string, [string, number, 'sending' | 'processing']>();
const progressMade = new Set<string>();
let noAnswer = false;
/** The token the lab refused (401), until the next batch tells the page. */
let unauthorized: string | null = null;
const faults: [string, Record<string, string>][] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (!bytes.size && !progressMade.size && !noAnswer && !unauthorized && !faults.length) return;
  const events: SendEvents = { bytes: [...bytes.values()], progressMade: [...progressMade], noAnswer, unauthorized, faults: faults.splice(0) };
  bytes.clear();
  progressMade.clear();
  noAnswer = false;
  unauthorized = null;
  listener?.(events);
}

const flushSoon = () => {
  timer ??= setTimeout(flush, EVENTS_EVERY_MS);
};

function theSender(): Sender {
  if (sender) return sender;
  setTokenSource(() => token);
  // The one client reports the lab's faults (5xx); here they travel to the page with the progress.
  forwardErrors((err, tags) => {
    faults.push([err instanceof Error ? err.message : String(err), tags]);
    flushSoon();
  });
  setUnauthorizedHandler((refused) => {
    unauthorized = refused;
    flush();
  });
  sender = new Sender({
    db: labDb,
    api: labUploadApi,
    sha256: sha256Hex,
    worker: {
      put,
      abort,
      onProgress(fn) {
        setProgressListener(fn);
        return () => setProgressListener(() => {});
      },
    },
  });
  sender.listen({
    onBytes(id, sent, phase) {
      bytes.set(id, [id, sent, phase]);
      flushSoon();
    },
    onProgressMade(id) {
      progressMade.add(id);
      flushSoon();
    },
    onNoAnswer() {
      noAnswer = true;
      flush();
    },
  });
  return sender;
}

export async function send(entry: UploadEntry, pageToken: string | null): Promise<SendOutcome> {
  token = pageToken;
  const outcome = await theSender().run(entry);
  // A lab call without an answer was recorded in this worker's copy of the connectivity store,
  // which nobody reads: the page's store must hear it (a PUT's is reported by onNoAnswer).
  if (outcome.kind === 'step' && outcome.action === 'offline') noAnswer = true;
  // What the file's last moments changed reaches the page before its outcome.
  flush();
  return outcome;
}

export const abortSends = (ids: string[]): void => sender?.abort(ids);

export function setSendListener(fn: (events: SendEvents) => void): void {
  listener = fn;
}
