/**
 * The life of one queued photo. Each state is written to IndexedDB as it is reached, so a reload,
 * a crash or a closed browser resumes from there:
 *
 *   queued ──checked──▶ ready ──presigned──▶ uploading ──sent──▶ completing ──completed──▶ confirming ──confirmed──▶ done
 *      │                  │  ╲duplicate▶ done   │    ╲sealed▶ confirming      (multipart only)          ╲refused▶ rejected
 *      ╰─refused▶ rejected╰─refused▶ rejected   ╰gone▶ ready (start again)
 *   any but done/rejected ──failed──▶ failed ──retry──▶ where it failed
 *
 * 'done' and 'rejected' are not stored as states: the photo then leaves the queue for the photos
 * or the rejections table. Pausing is a flag beside the state, not a state, so a paused file
 * resumes exactly where it stopped.
 */
export type UploadState = 'queued' | 'ready' | 'uploading' | 'completing' | 'confirming' | 'failed';

export type UploadOutcome = UploadState | 'done' | 'rejected';

export type UploadEvent =
  /** The worker found a JPEG or PNG and its checksum. */
  | { type: 'checked' }
  /** The server answered create_presigned_url with URLs. */
  | { type: 'presigned' }
  /** The server already has a photo with this checksum in the order: nothing to send. */
  | { type: 'duplicate' }
  /** Every byte is in storage (the single PUT, or every part). */
  | { type: 'sent'; multipart: boolean }
  /** Storage says the key is already confirmed (a confirmation that landed before a crash). */
  | { type: 'sealed' }
  /** The server forgot the multipart upload: the file starts again. */
  | { type: 'gone' }
  | { type: 'completed' }
  | { type: 'confirmed' }
  /** The server or the worker will never take this file. */
  | { type: 'refused' }
  | { type: 'failed' }
  /** The user asks to try a failed file again: it goes back to where it failed. */
  | { type: 'retry'; from: UploadState };

const ACTIVE: readonly UploadState[] = ['queued', 'ready', 'uploading', 'completing', 'confirming'];

export class BadTransition extends Error {
  constructor(state: UploadState, event: UploadEvent['type']) {
    super(`an upload in state ${state} cannot take '${event}'`);
    this.name = 'BadTransition';
  }
}

export function nextState(state: UploadState, event: UploadEvent): UploadOutcome {
  const bad = () => new BadTransition(state, event.type);
  switch (event.type) {
    case 'checked':
      if (state !== 'queued') throw bad();
      return 'ready';
    case 'presigned':
      if (state !== 'ready') throw bad();
      return 'uploading';
    case 'duplicate':
      if (state !== 'ready') throw bad();
      return 'done';
    case 'sent':
      if (state !== 'uploading') throw bad();
      return event.multipart ? 'completing' : 'confirming';
    case 'sealed':
      if (state !== 'uploading' && state !== 'completing') throw bad();
      return 'confirming';
    case 'gone':
      if (state !== 'uploading' && state !== 'completing') throw bad();
      return 'ready';
    case 'completed':
      if (state !== 'completing') throw bad();
      return 'confirming';
    case 'confirmed':
      if (state !== 'confirming') throw bad();
      return 'done';
    case 'refused':
      if (!ACTIVE.includes(state)) throw bad();
      return 'rejected';
    case 'failed':
      if (!ACTIVE.includes(state)) throw bad();
      return 'failed';
    case 'retry':
      if (state !== 'failed' || !ACTIVE.includes(event.from)) throw bad();
      return event.from;
  }
}

/** States whose bytes are all in storage: the screen calls them processing. */
export const isProcessing = (state: UploadState) => state === 'completing' || state === 'confirming';
