import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/domain/paths.ts';
import { MAX_PARTS } from '../adapters/storage/storage.ts';
import type { ServerDeps } from '../deps.ts';
import { presignCertificate } from '../services/certificate-service.ts';
import { MAX_PHOTO_BYTES } from '../services/file-checks.ts';
import { confirmPhotograph } from '../services/photo-acceptance.ts';
import { DEFAULT_PHOTOS_PER_PAGE, MAX_PHOTOS_PER_PAGE, getPhotograph, listPhotographs } from '../services/photo-service.ts';
import { completePhotoUpload, presignPhoto } from '../services/photo-upload-service.ts';
import { duplicatePhotoSchema, multipartUploadSchema, photoSchema, singleUploadSchema } from './photo-shapes.ts';
import { guid } from '../../src/contract/shapes.ts';

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
const photoBody = z.object({
  lab_order_guid: orderGuid,
  photo_file_name: fileName,
  content_type: z.enum(['image/jpeg', 'image/png'], { error: 'Photos must be JPEG or PNG files.' }),
  // docs/orders.md §7 sends neither: the lab measures and hashes the stored object when it is confirmed.
  // A multipart upload needs its size to cut the photo into parts.
  size: photoSize.optional(),
  checksum: checksum.optional(),
  multipart: z.boolean().optional(),
}).refine((body) => !body.multipart || body.size !== undefined, { message: 'size must be the number of bytes of the photo.', path: ['size'] });
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

/** The photos of an order and their upload straight to storage (docs/api.md §7). */
export const photoRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      API.createPresignedUrl,
      {
        schema: {
          tags: ['uploads'],
          summary:
            'A signed upload address. The blanket certificate: the user guid and file_name. A photo of an open order: one PUT, multipart (multipart: true) with part addresses, or duplicate when the order holds the same bytes; with uploadId and part_numbers: fresh part addresses',
          params: z.object({ guid: z.string().max(100) }),
          body: z.union(BRANCHES, { error: presignBodyError }),
          response: { 200: z.union([singleUploadSchema, multipartUploadSchema, duplicatePhotoSchema]) },
        },
      },
      (request) => {
        const body = request.body;
        // The same address serves the certificate (a user guid) and photos (an order guid).
        if ('file_name' in body) return presignCertificate(deps, request.actor, body);
        return presignPhoto(deps, request.actor, request.params.guid.toLowerCase(), body);
      },
    );

    app.post(
      API.completeUpload,
      {
        schema: {
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
          response: { 200: z.object({ key: z.string() }) },
        },
      },
      (request) => completePhotoUpload(deps, request.actor, request.params.guid, request.body),
    );

    app.patch(
      API.photographUploaded,
      {
        schema: {
          tags: ['uploads'],
          summary: 'The upload is done: the stored photo is checked (JPEG or PNG, size, checksum, readable) and joins the order (201), or is the same as one it has (200); refused photos are removed (422)',
          params: z.object({ guid: orderGuid }),
          // docs/orders.md §7 sends the file name alone: the lab finds that file's upload in the order.
          body: z.object({ key: z.string().min(1).max(500).optional(), photo_file_name: fileName, checksum: checksum.optional(), size: photoSize.optional() }),
          response: { 200: z.object({ data: photoSchema }), 201: z.object({ data: photoSchema }) },
        },
      },
      async (request, reply) => {
        const answer = await confirmPhotograph(deps, request.actor, request.params.guid, request.body, request.log);
        return reply.code(answer.status).send(answer.body);
      },
    );

    app.get(
      API.labOrderPhotographs,
      {
        schema: {
          tags: ['lab orders'],
          summary: 'The photos of an order in upload order, a page at a time',
          params: z.object({ guid: orderGuid }),
          querystring: z.object({
            page: z.coerce.number().int().min(1).max(1_000_000).default(1),
            per_page: z.coerce.number().int().min(1).max(MAX_PHOTOS_PER_PAGE).default(DEFAULT_PHOTOS_PER_PAGE),
          }),
          response: { 200: z.object({ data: z.array(photoSchema), meta: z.object({ total: z.number(), page: z.number(), per_page: z.number() }) }) },
        },
      },
      (request) => listPhotographs(deps, request.actor, request.params.guid, request.query),
    );

    app.get(
      API.photograph,
      {
        schema: {
          tags: ['lab orders'],
          summary: 'One photo of an order',
          params: z.object({ guid: orderGuid, photoGuid: guid('This photo does not exist.') }),
          response: { 200: z.object({ data: photoSchema }) },
        },
      },
      (request) => getPhotograph(deps, request.actor, request.params.guid, request.params.photoGuid),
    );
  };
