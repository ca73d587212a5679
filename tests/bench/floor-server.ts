/**
 * The bench's floor outside our stack (issue 32): a plain Fastify process, no plugins and no
 * hooks, answering each call with the answer our server gave once to the same call, byte for
 * byte (status, headers and body as they crossed the wire, compressed where ours compressed).
 * Our rate divided by this process's is what our stack costs per request beyond Fastify itself.
 *
 * node --import tsx tests/bench/floor-server.ts <answers.json>; listens on a free loopback port (the
 * bench's own range stays for the processes it names) and prints "listening on <port>" once up.
 * The answers file is written by floor-answers.ts (captureAnswer, answerKey).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { answerKey, type CapturedAnswers } from './floor-answers.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: floor-server.ts <answers.json>');

const captured = JSON.parse(readFileSync(file, 'utf8')) as CapturedAnswers;
// Decoded once: serving an answer costs only what sending those bytes costs.
const answers = new Map(
  Object.entries(captured).map(([key, a]) => [key, { status: a.status, headers: Object.fromEntries(a.headers), body: Buffer.from(a.body, 'base64') }]),
);

const app = Fastify({ logger: false });
app.all('*', (request, reply) => {
  const key = answerKey(request.method, request.url);
  // The answer for this caller first (the admin's list is not a photographer's), then anyone's.
  const token = request.headers.token;
  const answer = (typeof token === 'string' ? answers.get(`${key} ${token}`) : undefined) ?? answers.get(key);
  if (!answer) return reply.code(404).send({ error: `the floor has no answer for ${request.method} ${request.url}` });
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening on ${typeof address === 'object' && address ? address.port : '?'}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
