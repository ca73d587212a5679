import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { AnswerOf, InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';
import { createUser, signIn, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';

/** The photo upload contract driven through inject, PUTs to the signed URLs included. */

export const MiB = 1024 * 1024;
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
let keys = 0;
/** A fresh Idempotency-Key, as the client's queue makes one per step. */
export const newKey = () => `test-${Date.now()}-${(keys += 1)}`;

/**
 * A real JPEG padded to `bytes` with random data after its end marker (as phones append motion
 * clips): large enough for multipart, cheap to make, still a readable photo.
 */
export async function bigJpeg(bytes: number): Promise<Buffer> {
  const jpeg = await noisyJpeg(320, 240);
  return Buffer.concat([jpeg, randomBytes(bytes - jpeg.length)]);
}

export async function photographer(t: TestApp, fields: Parameters<typeof createUser>[1] = {}) {
  const { user, password } = await createUser(t.db, fields);
  return { user, token: await signIn(t.app, user.email, password) };
}

/** A mutating call of the contract by the page's name, with a fresh Idempotency-Key as the page sends. */
export const callAs: typeof callApi = (app, name, input, options = {}) => callApi(app, name, input, { ...options, headers: { 'idempotency-key': newKey(), ...options.headers } });

export async function newOrder(t: TestApp, token: string, name = `Order ${newKey()}`): Promise<string> {
  const res = await callAs(t.app, 'POST /lab_orders', { body: { order_name: name } }, { token });
  expect(res.status).toBe(201);
  return res.json().data.attributes.guid;
}

export async function presign(t: TestApp, token: string, order: string, file: Buffer, extra: Record<string, unknown> = {}) {
  const body = { lab_order_guid: order, photo_file_name: 'photo.jpg', content_type: 'image/jpeg', size: file.length, checksum: sha256(file), ...extra };
  // extra may be deliberately outside the contract (a GIF, a 250 MB photo) to test the refusals.
  const input = { params: { guid: order }, body } as InputOf<Contract['POST /lab_orders/:guid/create_presigned_url']>;
  return (await callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', input, { token })).response;
}

export const put = (t: TestApp, url: string, body: Buffer, headers: Record<string, string> = {}) => t.app.inject({ method: 'PUT', url, payload: body, headers });

export const confirm = async (t: TestApp, token: string, order: string, body: InputOf<Contract['PATCH /lab_orders/:guid/photograph_uploaded']>['body']) =>
  (await callAs(t.app, 'PATCH /lab_orders/:guid/photograph_uploaded', { params: { guid: order }, body }, { token })).response;

type PresignAnswer = AnswerOf<Contract['POST /lab_orders/:guid/create_presigned_url']>;

/** The one-PUT answer of create_presigned_url; a multipart or duplicate answer fails the test. */
export function singleUpload(answer: PresignAnswer) {
  if (!('signedUrl' in answer)) throw new Error(`expected one upload address, got ${JSON.stringify(answer)}`);
  return answer;
}

/** The multipart answer of create_presigned_url (part addresses); any other answer fails the test. */
export function multipartUpload(answer: PresignAnswer) {
  if (!('parts' in answer)) throw new Error(`expected part addresses, got ${JSON.stringify(answer)}`);
  return answer;
}

/** Fresh addresses for some parts of a multipart upload, as the client asks when it resumes. */
export const renewParts = (t: TestApp, token: string, order: string, uploadId: string, partNumbers: number[]) =>
  callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: order }, body: { lab_order_guid: order, uploadId, part_numbers: partNumbers } }, { token });

/** One PUT, then photograph_uploaded; answers the confirmation. */
export async function uploadSingle(t: TestApp, token: string, order: string, file: Buffer, name = 'photo.jpg') {
  const photo = { photo_file_name: name, checksum: sha256(file), size: file.length };
  const signed = await callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: order }, body: { lab_order_guid: order, content_type: 'image/jpeg', ...photo } }, { token });
  expect(signed.status).toBe(200);
  const single = singleUpload(signed.json());
  expect((await put(t, single.signedUrl, file, single.headers)).statusCode).toBe(200);
  const confirmed = await callAs(t.app, 'PATCH /lab_orders/:guid/photograph_uploaded', { params: { guid: order }, body: { key: single.key, ...photo } }, { token });
  return confirmed.response;
}

export interface Multipart {
  uploadId: string;
  key: string;
  partSize: number;
  parts: { partNumber: number; signedUrl: string }[];
}

export async function startMultipart(t: TestApp, token: string, order: string, file: Buffer): Promise<Multipart> {
  const res = await presign(t, token, order, file, { multipart: true });
  expect(res.statusCode).toBe(200);
  return res.json() as Multipart;
}

/** PUTs one part; answers its ETag. */
export async function putPart(t: TestApp, upload: Multipart, file: Buffer, partNumber: number, url?: string): Promise<string> {
  const signedUrl = url ?? upload.parts.find((p) => p.partNumber === partNumber)?.signedUrl ?? '';
  const bytes = file.subarray((partNumber - 1) * upload.partSize, partNumber * upload.partSize);
  const res = await put(t, signedUrl, bytes);
  expect(res.statusCode).toBe(200);
  expect(res.headers['access-control-expose-headers']).toBe('ETag');
  return String(res.headers.etag);
}

export const complete = async (t: TestApp, token: string, order: string, uploadId: string, parts: { partNumber: number; etag: string }[]) =>
  (await callAs(t.app, 'POST /lab_orders/:guid/complete_upload', { params: { guid: order }, body: { uploadId, parts } }, { token })).response;
