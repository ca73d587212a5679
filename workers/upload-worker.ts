/// <reference lib="webworker" />
/**
 * The upload worker: everything that scales with a photo happens here, off the page's thread
 * (docs/performance-notes.md §8): the content check, the streamed SHA-256, the thumbnail, and the sending loop
 * (every part's PUT and record, URL renewals, complete_upload, photograph_uploaded). The page
 * reaches it only through src/offline/upload-worker-bridge.ts.
 */
import { expose } from 'comlink';
import { notAPhotoReason, readPixelSize, sniffPhotoType } from '../src/domain/photo-content.ts';
import { labDb } from '../src/offline/db.ts';
import { checkStoredPhoto } from '../src/offline/upload-prepare.ts';
import { queueFiles } from '../src/offline/upload-store.ts';
import { sha256Hex } from './upload/checksum.ts';
import type { InspectResult, UploadWorkerApi } from './upload/protocol.ts';
import { abortSends, send, setSendListener } from './upload/send.ts';
import { makeThumbnail, readHead } from './upload/thumbnail.ts';

const api: UploadWorkerApi = {
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
  check: (entry) => checkStoredPhoto(labDb, api, entry),
  send,
  abortSends,
  setSendListener,
};

expose(api);
