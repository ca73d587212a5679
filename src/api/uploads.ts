import { call } from './call.ts';
import { ApiError, isErrorBody } from './errors.ts';
import type { SinglePresign } from './lab-order-upload.ts';

/** A signed address for one PUT. */
export type PresignedUpload = SinglePresign;

/** A signed address for the blanket certificate of resale (docs/accounts.md §7): always one PUT. */
export async function presignCertificate(userGuid: string, fileName: string): Promise<PresignedUpload> {
  const answer = await call('POST /lab_orders/:guid/create_presigned_url', { params: { guid: userGuid }, body: { guid: userGuid, file_name: fileName } });
  if ('signedUrl' in answer) return answer;
  throw new ApiError('http', 'The lab answered no upload address for the certificate.');
}

/** The certificate's upload is done: the lab checks it is a PDF, keeps it and answers its link. */
export const confirmCertificate = (key: string) => call('POST /accounts/blanket_certificate', { body: { key } });

/**
 * Sends a file to a signed storage address (the embedded store or S3), not to the API: the one
 * place outside the API client that calls fetch, since storage speaks its own protocol.
 */
export async function putToSignedUrl(upload: PresignedUpload, file: Blob): Promise<void> {
  let response: Response;
  try {
    response = await fetch(upload.signedUrl, { method: 'PUT', headers: upload.headers, body: file });
  } catch (err) {
    throw new ApiError('network', err instanceof Error ? err.message : 'No response');
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw isErrorBody(body) ? ApiError.fromBody(body, response.status) : new ApiError('http', `HTTP ${response.status}`, { status: response.status });
  }
}

/** The certificate's whole upload: a signed address, the file sent to it, then the server told. */
export async function uploadCertificate(userGuid: string, file: File): Promise<string> {
  const upload = await presignCertificate(userGuid, file.name);
  await putToSignedUrl(upload, file);
  return (await confirmCertificate(upload.key)).blanket_certificate_of_resale_link;
}
