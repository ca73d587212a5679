/**
 * The one API object the upload worker exposes (workers/upload-worker.ts is its thin entry):
 * everything that scales with a photo happens behind it, off the page's thread (docs/performance-notes.md §8):
 * storing chosen files, the content check, the streamed SHA-256, the thumbnail, and the sending
 * loop (every part's PUT and record, URL renewals, complete_upload, photograph_uploaded). The page
 * reaches it only through src/upload/page/upload-worker-bridge.ts.
 */
import { notAPhotoReason, readPixelSize, sniffPhotoType } from '../../domain/photo-content.ts';
import { labDb } from '../../offline/db.ts';
import type { InspectResult, UploadWorkerApi } from '../shared/protocol.ts';
import { queueFiles } from '../shared/upload-store.ts';
import { sha256Hex } from './checksum.ts';
import { abortSends, send, setSendListener } from './send.ts';
import { makeThumbnail, readHead } from './thumbnail.ts';
import { checkStoredPhoto } from './upload-check.ts';

export const uploadWorkerApi: UploadWorkerApi = {
  queueFiles: (owner, orderGuid, files, onStored) => queueFiles(labDb, owner, orderGuid, files, undefined, onStored),
  async inspect(file, name, thumbnailSide): Promise<InspectResult> {
    const head = await readHead(file);
    const contentType = sniffPhotoType(head);
    if (!contentType) return { ok: false, reason: notAPhotoReason(name) };
    const size = readPixelSize(head);
    const thumbnail = await makeThumbnail(file, head, thumbnailSide);
    return { ok: true, contentType, width: size?.width ?? null, height: size?.height ?? null, thumbnail };
  },
  async thumbnail(file, side, preferExif) {
    return makeThumbnail(file, await readHead(file), side, preferExif);
  },
  sha256: sha256Hex,
  check: (entry) => checkStoredPhoto(labDb, uploadWorkerApi, entry),
  send,
  abortSends,
  setSendListener,
};
