import { z } from 'zod';

/** Shapes of the photo upload contract (docs/api.md §7) that several routes answer. */

export const photoSchema = z.object({
  guid: z.string(),
  photo_file_name: z.string(),
  photo_url: z.string(),
  presigned_photo_url: z.string(),
  smallest_photo: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  size: z.number(),
  checksum: z.string().nullable(),
  content_type: z.enum(['image/jpeg', 'image/png']),
  derivatives_ready: z.boolean(),
  unreadable_reason: z.string().nullable(),
  created_at: z.string(),
});

export const singleUploadSchema = z.object({ signedUrl: z.string(), key: z.string(), headers: z.record(z.string(), z.string()) });

export const multipartUploadSchema = z.object({
  uploadId: z.string(),
  key: z.string(),
  partSize: z.number(),
  parts: z.array(z.object({ partNumber: z.number(), signedUrl: z.string() })),
});

export const duplicatePhotoSchema = z.object({ duplicate: z.literal(true), photograph: photoSchema });
