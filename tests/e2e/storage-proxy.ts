/**
 * A pass-through proxy in front of the real lab server for the upload tests and the benchmark:
 * the browser talks to the proxy's origin, every request goes on to the server unchanged, and the
 * proxy counts the PUTs to storage (what the server received), can slow them to a photographer's
 * uplink, can cut every connection at once (a dropped link), and can answer one chosen part PUT
 * with the contract's expiry error before it reaches the server (a URL that outlived its 15
 * minutes, without waiting 15 minutes). It never answers anything else itself, except what a
 * test or the benchmark answers through `answerHere` (the upload benchmark's Uppy page and its S3
 * shim, which must share the lab's origin).
 */
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface StoragePut {
  /** Path and query as the browser sent them (the signed URL without its origin). */
  url: string;
  status: number;
  /** Bytes of the body the proxy passed on (a cut PUT counts what got through). */
  bytes: number;
  complete: boolean;
  /** When the request arrived and when its answer ended (ms since epoch). */
  startedAt: number;
  endedAt: number;
}

export interface ProxyOptions {
  /** The lab server, e.g. http://127.0.0.1:4326 */
  target: string;
  /** Only URLs under this path are storage (the embedded store; the contract's signed URLs). */
  storagePrefix?: string;
}

/**
 * One uplink shared by every PUT through it, as a photographer's line is: a token bucket of
 * `bytesPerSecond` without burst, each chunk waiting its turn, so four PUTs at once get a quarter
 * each and one alone gets it all.
 */
export class SharedLink {
  /** When the link is next free to carry a byte (ms since epoch). */
  #freeAt = 0;

  constructor(readonly bytesPerSecond: number) {}

  /** Resolves when `bytes` have crossed the link, after every chunk that asked before them. */
  carry(bytes: number): Promise<void> {
    const now = Date.now();
    this.#freeAt = Math.max(this.#freeAt, now) + (bytes / this.bytesPerSecond) * 1000;
    const wait = this.#freeAt - now;
    // sleep-allowed: the link's speed is what this fake stands for (a photographer's uplink).
    return wait > 0 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
  }
}

export class StorageProxy {
  readonly puts: StoragePut[] = [];
  /** Bytes per second per PUT; 0 = as fast as the server takes them. */
  throttle = 0;
  /** The link every storage PUT shares (the throttled-link bench); null = none. */
  link: SharedLink | null = null;
  /** Decides, for a storage PUT, to answer 403 SignatureExpired instead of passing it on. */
  expire: (url: string) => boolean | Promise<boolean> = () => false;
  /** Answers a request itself instead of passing it on when this returns true. */
  answerHere: (req: IncomingMessage, res: ServerResponse) => boolean = () => false;
  readonly #target: URL;
  readonly #prefix: string;
  readonly #sockets = new Set<Socket>();
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 64 });
  readonly #server = createServer((req, res) => void this.#handle(req, res));
  origin = '';

  constructor(opts: ProxyOptions) {
    this.#target = new URL(opts.target);
    this.#prefix = opts.storagePrefix ?? '/storage/';
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('proxy did not start');
    this.origin = `http://127.0.0.1:${address.port}`;
    return this.origin;
  }

  async stop(): Promise<void> {
    this.cutAll();
    this.#agent.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Every connection from the browser drops at once, mid-request or not. */
  cutAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Storage PUTs that the server answered 2xx, by URL path (the signature varies, the path does not). */
  storedPuts(): StoragePut[] {
    return this.puts.filter((p) => p.complete && p.status >= 200 && p.status < 300);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    if (this.answerHere(req, res)) return;
    const isStoragePut = req.method === 'PUT' && url.startsWith(this.#prefix);
    const record: StoragePut = { url, status: 0, bytes: 0, complete: false, startedAt: Date.now(), endedAt: 0 };
    if (isStoragePut) this.puts.push(record);

    if (isStoragePut && (await this.expire(url))) {
      req.resume();
      req.on('end', () => {
        record.status = 403;
        record.complete = true;
        record.endedAt = Date.now();
        const message = 'This link has expired. Please try again.';
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { status: 403, class_name: 'SignatureExpired', developer_message: message, user_message: { message }, more_info: [] } }));
      });
      return;
    }

    const upstream = request(
      { host: this.#target.hostname, port: this.#target.port, method: req.method, path: url, headers: req.headers, agent: this.#agent },
      (answer) => {
        record.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => {
          record.complete = true;
          record.endedAt = Date.now();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.on('aborted', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });

    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        // The chunk crosses the shared link before it reaches the server.
        if (isStoragePut && this.link) await this.link.carry(chunk.length);
        record.bytes += chunk.length;
        if (!upstream.write(chunk)) await new Promise((r) => upstream.once('drain', r));
        // sleep-allowed: a throttled PUT crosses a slow uplink, which is what the proxy stands for.
        if (isStoragePut && this.throttle > 0) await new Promise((r) => setTimeout(r, (chunk.length / this.throttle) * 1000));
      }
      upstream.end();
    } catch {
      // The browser's connection dropped (or was cut): the server sees the request end early.
      upstream.destroy();
    }
  }
}
