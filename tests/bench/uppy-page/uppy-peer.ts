/**
 * The upload benchmark's peer (tests/bench/upload.ts): Uppy's S3 uploader (@uppy/core and
 * @uppy/aws-s3 6.3.1) sending the bench's photos to the lab's own storage through the lab's own
 * calls, as a lab that chose Uppy would wire it. Built by Vite for the bench only (never part of
 * the app's build) and loaded from the lab's origin.
 *
 * Uppy 6 no longer has v5's signPart / createMultipartUpload / completeMultipartUpload options:
 * its one hook is `signRequest(request) -> { url, key?, headers? }`, called before every S3
 * request (create, each part, complete), and Uppy then sends the S3 request itself. So:
 * - create: signRequest hashes the file (the lab wants its SHA-256, as our worker sends it) and
 *   calls create_presigned_url {multipart: true}; it answers a URL of the bench's S3 shim that
 *   replies the S3 XML carrying the lab's uploadId, and the lab's key;
 * - each part: the part URL create_presigned_url signed (the lab's storage, like our worker's PUTs);
 * - complete: calls complete_upload with the parts Uppy reported (`s3-multipart:part-uploaded`),
 *   then answers a shim URL that replies the S3 completion XML;
 * - after Uppy's upload-success, photograph_uploaded, as our queue does, so a photo counts once
 *   the lab has it in the order.
 */
import Uppy from '@uppy/core';
import AwsS3 from '@uppy/aws-s3';

interface RunOptions {
  orderGuid: string;
  token: string;
  /** Files at once; Uppy 6 sends each file's parts one after another, so this is the PUTs in flight. */
  limit: number;
  /** The bench's S3 shim (answers the XML of create and complete). */
  shim: string;
  partSize: number;
  multipartAbove: number;
}

interface RunResult {
  ms: number;
  confirmed: number;
  failures: string[];
}

interface Pending {
  fileId: string;
  name: string;
  size: number;
  checksum: string;
  key: string;
  parts: Map<number, string>;
  etags: Map<number, string>;
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

async function run(opts: RunOptions): Promise<RunResult> {
  const input = document.getElementById('bench-files') as HTMLInputElement;
  const files = [...(input.files ?? [])];
  const api = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const res = await fetch(`/api/v2/lab_orders/${opts.orderGuid}/${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json', token: opts.token, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const byUpload = new Map<string, Pending>();
  const singles = new Map<string, { checksum: string }>();

  const uppy = new Uppy({ autoProceed: false, allowMultipleUploadBatches: false });
  const checksumOf = async (fileId: string) => {
    const data = uppy.getFile(fileId)?.data;
    if (!(data instanceof Blob)) throw new Error(`no data for ${fileId}`);
    return hex(await crypto.subtle.digest('SHA-256', await data.arrayBuffer()));
  };
  uppy.use(AwsS3, {
    limit: opts.limit,
    shouldUseMultipart: (file) => (file.size ?? 0) > opts.multipartAbove,
    // The lab chooses the part size (8 MiB); Uppy cuts the file before it asks, so it is told.
    getChunkSize: () => opts.partSize,
    // The key names the Uppy file, so signRequest finds it; the lab answers its own key.
    generateObjectKey: (file) => file.id,
    async signRequest(request) {
      if (request.method === 'POST' && !('uploadId' in request)) {
        const file = uppy.getFile(request.key);
        const checksum = await checksumOf(file.id);
        const answer = await api<{ uploadId: string; key: string; partSize: number; parts: { partNumber: number; signedUrl: string }[] }>('POST', 'create_presigned_url', {
          lab_order_guid: opts.orderGuid,
          photo_file_name: file.name,
          content_type: file.type,
          size: file.size,
          checksum,
          multipart: true,
        });
        if (answer.partSize !== opts.partSize) throw new Error(`the lab cut parts of ${answer.partSize} bytes, not ${opts.partSize}`);
        byUpload.set(answer.uploadId, {
          fileId: file.id,
          name: file.name ?? '',
          size: file.size ?? 0,
          checksum,
          key: answer.key,
          parts: new Map(answer.parts.map((p) => [p.partNumber, p.signedUrl])),
          etags: new Map(),
        });
        return { url: `${opts.shim}/initiate?uploadId=${encodeURIComponent(answer.uploadId)}`, key: answer.key };
      }
      if (request.method === 'PUT' && 'partNumber' in request) {
        const url = byUpload.get(request.uploadId)?.parts.get(request.partNumber);
        if (!url) throw new Error(`no URL for part ${request.partNumber}`);
        return { url };
      }
      if (request.method === 'POST' && 'uploadId' in request) {
        const pending = byUpload.get(request.uploadId);
        if (!pending) throw new Error('complete of an unknown upload');
        const parts = [...pending.etags].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));
        await api('POST', 'complete_upload', { uploadId: request.uploadId, parts });
        return { url: `${opts.shim}/complete?key=${encodeURIComponent(pending.key)}` };
      }
      if (request.method === 'PUT') {
        // A photo under the multipart threshold: one signed PUT.
        const file = uppy.getFile(request.key);
        const checksum = await checksumOf(file.id);
        const answer = await api<{ signedUrl: string; key: string; headers: Record<string, string> }>('POST', 'create_presigned_url', {
          lab_order_guid: opts.orderGuid,
          photo_file_name: file.name,
          content_type: file.type,
          size: file.size,
          checksum,
        });
        singles.set(answer.key, { checksum });
        return { url: answer.signedUrl, key: answer.key, headers: answer.headers };
      }
      // An abort: nothing at the lab to call; the shim answers it.
      return { url: `${opts.shim}/abort` };
    },
  });

  uppy.on('s3-multipart:part-uploaded', (file, part) => {
    if (!file) return;
    for (const pending of byUpload.values()) if (pending.fileId === file.id) pending.etags.set(part.PartNumber, part.ETag);
  });
  const failures: string[] = [];
  const confirmations: Promise<void>[] = [];
  uppy.on('upload-error', (file, err) => failures.push(`${file?.name}: ${err.message}`));
  uppy.on('upload-success', (file, response) => {
    if (!file) return;
    const key = (response.body as { key?: string } | undefined)?.key ?? '';
    const checksum = [...byUpload.values()].find((p) => p.fileId === file.id)?.checksum ?? singles.get(key)?.checksum;
    confirmations.push(
      api('PATCH', 'photograph_uploaded', { key, photo_file_name: file.name, checksum, size: file.size }).then(
        () => undefined,
        (err: unknown) => void failures.push(`${file.name}: ${String(err)}`),
      ),
    );
  });

  const started = performance.now();
  uppy.addFiles(files.map((data) => ({ name: data.name, type: data.type || 'image/jpeg', data, source: 'bench' })));
  await uppy.upload();
  await Promise.all(confirmations);
  const ms = performance.now() - started;
  const confirmed = confirmations.length - failures.length;
  uppy.destroy();
  return { ms, confirmed, failures: failures.slice(0, 5) };
}

(window as unknown as { uppyRun: typeof run }).uppyRun = run;
document.title = 'uppy ready';
