/**
 * The outside floor's answers (floor-server.ts): our server's real answer to a call, captured once
 * as it crossed the wire, then served by a plain Fastify process in a child process of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from './cleanup.ts';

export interface CapturedAnswer {
  status: number;
  /** Header name and value pairs as our server sent them, less those Node writes for every answer. */
  headers: [string, string][];
  /** The body's wire bytes, base64. */
  body: string;
}
export type CapturedAnswers = Record<string, CapturedAnswer>;

// Written by Node (or Fastify) for every answer from the body and the connection: the floor's
// own are as large as ours.
const PER_ANSWER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The floor process imports Fastify and tsx compiles it: a few seconds, more on two busy cores.
const START_TIMEOUT_MS = 60_000;

/**
 * Which captured answer a call gets: its method, its path with ids as ":id", and the names of its
 * query parameters. Every photographer's first page is one answer, as are their next pages and
 * their searches; what differs between them (the ids, the cursor) costs the floor nothing.
 */
export function answerKey(method: string, url: string): string {
  const [path = '', query = ''] = url.split('?', 2);
  const names = [...new URLSearchParams(query).keys()].sort();
  const shape = path
    .split('/')
    .map((part) => (GUID.test(part) ? ':id' : part))
    .join('/');
  return `${method} ${shape}${names.length ? `?${names.join('&')}` : ''}`;
}

/** One call to our server, its answer kept as it crossed the wire (nothing decoded). */
export function captureAnswer(origin: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? '';
          if (!PER_ANSWER_HEADERS.has(name.toLowerCase())) pairs.push([name, res.rawHeaders[i + 1] ?? '']);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString('base64') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface FloorProcess {
  origin: string;
  stop(): Promise<void>;
}

/** Starts floor-server.ts with these answers; it is stopped by the bench's clean-up too. */
export async function startFloor(answers: CapturedAnswers): Promise<FloorProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'lab-bench-floor-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'floor-server.ts'), file], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const unregister = onCleanup(stop);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the floor did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the floor exited (${code}) during start:\n${output}`));
    });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}
