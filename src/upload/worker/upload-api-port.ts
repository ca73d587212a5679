/**
 * The API calls the upload queue makes, as one object, so tests can hand the queue their own.
 * The app passes the real ones from src/api/lab-order-upload.ts.
 */
import { completeUpload, confirmPhotograph, createPhotoUpload, renewPartUrls } from '../../api/lab-order-upload.ts';

export interface UploadApiPort {
  createPhotoUpload: typeof createPhotoUpload;
  renewPartUrls: typeof renewPartUrls;
  completeUpload: typeof completeUpload;
  confirmPhotograph: typeof confirmPhotograph;
}

export const labUploadApi: UploadApiPort = { createPhotoUpload, renewPartUrls, completeUpload, confirmPhotograph };
