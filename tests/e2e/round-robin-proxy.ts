/**
 * A load balancer on loopback for the scale-out journey: every request goes to the next API
 * process in turn (one, two, one, …), whatever connection it came on, so a photographer's
 * consecutive calls land on different processes. It adds the caller's address to
 * X-Forwarded-For, as a lab's load balancer does (the processes run with TRUST_PROXY=true), and
 * keeps a line per request: which process served it, so a test can count both did.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Forwarded {
  method: string;
  /** Path and query as the browser sent them. */
  url: string;
  /** Index of the process it went to, in the order the upstreams were given. */
  upstream: number;
  /** The process's answer; 0 while none has come (or none ever did). */
  status: number;
}

export class RoundRobinProxy {
  readonly forwarded: Forwarded[] = [];
  origin = '';
  #upstreams: URL[] = [];
  #next = 0;
  readonly #agent = new Agent({ keepAlive: true });
  readonly #sockets = new Set<Socket>();
  readonly #server = createServer((req, res) => this.#handle(req, res));

  /** Listens on a free loopback port before the processes exist: they are told its origin. */
  async start(): Promise<string> {
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('the proxy did not start');
    this.origin = `http://127.0.0.1:${address.port}`;
    return this.origin;
  }

  /** The API processes, e.g. ['http://127.0.0.1:4481', 'http://127.0.0.1:4482']. */
  route(upstreams: string[]): void {
    this.#upstreams = upstreams.map((u) => new URL(u));
  }

  /** Requests each process answered, in the order the upstreams were given. */
  answeredBy(): number[] {
    return this.#upstreams.map((_, i) => this.forwarded.filter((f) => f.upstream === i && f.status > 0).length);
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#agent.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.#upstreams.length === 0) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no API process behind the proxy yet');
      return;
    }
    const upstream = this.#next;
    this.#next = (this.#next + 1) % this.#upstreams.length;
    const target = this.#upstreams[upstream] as URL;
    const record: Forwarded = { method: req.method ?? 'GET', url: req.url ?? '/', upstream, status: 0 };
    this.forwarded.push(record);

    const caller = req.socket.remoteAddress ?? '';
    const before = req.headers['x-forwarded-for'];
    const headers = { ...req.headers, 'x-forwarded-for': before ? `${String(before)}, ${caller}` : caller };
    const onward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent: this.#agent },
      (answer) => {
        record.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => {
      // The process is gone or dropped the connection: a load balancer's 502, or a cut answer.
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end('the API process did not answer');
    });
    res.on('close', () => {
      if (!res.writableFinished) onward.destroy();
    });
    req.pipe(onward);
  }
}
