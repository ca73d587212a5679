import { z } from 'zod';
import { MAX_PARTS } from '../domain/multipart-limit.ts';
import { MAX_PHOTO_BYTES } from '../domain/photo-content.ts';
import { endpoint } from './endpoint.ts';
import { guid } from './shapes.ts';

/** The photos of an order and their upload straight to storage (docs/upload-and-sync.md §1). */

// A page of lab_order_photographs, and the photos GET /lab_orders/{guid} carries: a screen of
// thumbnails without a second call for most orders, a bounded answer for the largest.
export const DEFAULT_PHOTOS_PER_PAGE = 100;
export const MAX_PHOTOS_PER_PAGE = 500;

/** A photo of an order, as every photo call answers it. */
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

const orderGuid = guid('This order does not exist.');
const fileName = z.string().trim().min(1, 'The photo needs a file name.').max(255, 'A file name can be at most 255 characters.');
const CHECKSUM = 'checksum must be the SHA-256 of the file, in hex (64 characters).';
const checksum = z
  .string()
  .length(64, CHECKSUM)
  .regex(/^[0-9a-fA-F]{64}$/, CHECKSUM)
  .transform((hex) => hex.toLowerCase());
const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
const photoSize = z
  .number({ error: 'size must be the number of bytes of the photo.' })
  .int({ error: 'size must be the number of bytes of the photo.' })
  .min(1, 'This photo is empty.')
  .max(MAX_PHOTO_BYTES, {
    error: (issue) => `This photo is ${megabytes(Number(issue.input))} MB; the lab takes photos up to ${megabytes(MAX_PHOTO_BYTES)} MB each.`,
  });

// The three bodies create_presigned_url takes (the blanket certificate's is docs/accounts.md §4).
const certificateBody = z.object({ guid: guid('This account does not exist.'), file_name: z.string().min(1).max(255) });
const renewBody = z.object({
  lab_order_guid: orderGuid,
  uploadId: z.string().min(1).max(1024),
  part_numbers: z.array(z.number().int().min(1).max(MAX_PARTS)).min(1, 'Name the parts that need fresh addresses.').max(MAX_PARTS),
});
const photoBody = z
  .object({
    lab_order_guid: orderGuid,
    photo_file_name: fileName,
    content_type: z.enum(['image/jpeg', 'image/png'], { error: 'Photos must be JPEG or PNG files.' }),
    // docs/orders.md §7 sends neither: the lab measures and hashes the stored object when it is confirmed.
    // A multipart upload needs its size to cut the photo into parts.
    size: photoSize.optional(),
    checksum: checksum.optional(),
    multipart: z.boolean().optional(),
  })
  .refine((body) => !body.multipart || body.size !== undefined, { message: 'size must be the number of bytes of the photo.', path: ['size'] });
const BRANCHES = [certificateBody, renewBody, photoBody] as const;

/**
 * When no body shape fits, the refusal speaks about the one the caller meant (told by its
 * fields), e.g. 'This photo is 250 MB; ...' rather than zod's 'Invalid input'.
 */
function presignBodyError(issue: { input?: unknown; errors?: { message: string; path: PropertyKey[] }[][] }): string | undefined {
  const body = issue.input && typeof issue.input === 'object' ? (issue.input as Record<string, unknown>) : {};
  const meant = 'file_name' in body ? 0 : 'uploadId' in body || 'part_numbers' in body ? 1 : 2;
  const first = issue.errors?.[meant]?.[0];
  if (!first) return undefined;
  return first.message.endsWith('.') ? first.message : `${first.path.join('.')}: ${first.message}`;
}

export const presignAnswerSchema = z.union([singleUploadSchema, multipartUploadSchema, duplicatePhotoSchema]);

export const photosEndpoints = {
  createPresignedUrl: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/create_presigned_url',
    tags: ['uploads'],
    summary:
      'A signed upload address. The blanket certificate: the user guid and file_name. A photo of an open order: one PUT, multipart (multipart: true) with part addresses, or duplicate when the order holds the same bytes; with uploadId and part_numbers: fresh part addresses',
    params: z.object({ guid: z.string().max(100) }),
    body: z.union(BRANCHES, { error: presignBodyError }),
    answers: { 200: presignAnswerSchema },
  }),
  completeUpload: endpoint({
    method: 'POST',
    path: '/lab_orders/:guid/complete_upload',
    tags: ['uploads'],
    summary: "Multipart: join the parts (with each part PUT's ETag) into the photo",
    params: z.object({ guid: orderGuid }),
    body: z.object({
      uploadId: z.string().min(1).max(1024),
      parts: z
        .array(z.object({ partNumber: z.number().int().min(1).max(MAX_PARTS), etag: z.string().min(1).max(200) }))
        .min(1, 'List the parts of the upload.')
        .max(MAX_PARTS),
    }),
    answers: { 200: z.object({ key: z.string() }) },
  }),
  photographUploaded: endpoint({
    method: 'PATCH',
    path: '/lab_orders/:guid/photograph_uploaded',
    tags: ['uploads'],
    summary:
      'The upload is done: the stored photo is checked (JPEG or PNG, size, checksum, readable) and joins the order (201), or is the same as one it has (200); refused photos are removed (422)',
    params: z.object({ guid: orderGuid }),
    // docs/orders.md §7 sends the file name alone: the lab finds that file's upload in the order.
    body: z.object({ key: z.string().min(1).max(500).optional(), photo_file_name: fileName, checksum: checksum.optional(), size: photoSize.optional() }),
    answers: { 200: z.object({ data: photoSchema }), 201: z.object({ data: photoSchema }) },
  }),
  labOrderPhotographs: endpoint({
    method: 'GET',
    path: '/lab_orders/:guid/lab_order_photographs',
    tags: ['lab orders'],
    summary: 'The photos of an order in upload order, a page at a time',
    params: z.object({ guid: orderGuid }),
    query: z.object({
      page: z.coerce.number().int().min(1).max(1_000_000).default(1),
      per_page: z.coerce.number().int().min(1).max(MAX_PHOTOS_PER_PAGE).default(DEFAULT_PHOTOS_PER_PAGE),
    }),
    answers: { 200: z.object({ data: z.array(photoSchema), meta: z.object({ total: z.number(), page: z.number(), per_page: z.number() }) }) },
  }),
  photograph: endpoint({
    method: 'GET',
    path: '/lab_orders/:guid/photographs/:photoGuid',
    tags: ['lab orders'],
    summary: 'One photo of an order',
    params: z.object({ guid: orderGuid, photoGuid: guid('This photo does not exist.') }),
    answers: { 200: z.object({ data: photoSchema }) },
  }),
};

/** A photo of an order as the page receives it. */
export type Photo = z.output<typeof photoSchema>;
