import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The benchmark's floor (npm run bench): a precomputed JSON answer of exactly N bytes, served by
 * the same process, plugins and hooks as the real routes. A route's requests/s divided by this
 * one's at the same size is what the route's own work costs. Registered only with BENCH_FLOOR set,
 * and hidden from the OpenAPI document.
 */
export const BENCH_FLOOR_PATH = '/bench/floor';

// Smallest answer that is still a JSON object with a padding string ({"pad":""} is 10 bytes).
export const BENCH_FLOOR_MIN_BYTES = 16;
// Larger than any catalogue or list answer the bench compares with (the unpaged 10,000-order list
// is a few MB); the cap keeps a stray request from making the process allocate without bound.
export const BENCH_FLOOR_MAX_BYTES = 16 * 1024 * 1024;
// The bench asks for one size per route it measures (about ten); older sizes are dropped beyond this.
const MAX_CACHED_SIZES = 32;

const BYTES_MESSAGE = `bytes must be a whole number from ${BENCH_FLOOR_MIN_BYTES} to ${BENCH_FLOOR_MAX_BYTES}`;

/**
 * JSON shaped like the catalogue's answers (guids, names, prices), so that it compresses about
 * as well as theirs when compression is on, padded to exactly `bytes` bytes.
 */
export function floorBody(bytes: number): Buffer {
  // A fixed linear congruential sequence: the same bytes on every run, as random as guids look.
  let seed = 0x2545f491;
  const hex = (n: number) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      out += ((seed >>> 16) & 0xf).toString(16);
    }
    return out;
  };
  const items: string[] = [];
  const closing = '],"pad":""}';
  let length = '{"data":['.length + closing.length;
  for (let i = 0; ; i++) {
    const item = JSON.stringify({
      guid: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
      name: `Lustre ${8 + (i % 9)}x${10 + (i % 7)} print ${i}`,
      price: 500 + ((i * 137) % 9000),
      is_default: i % 5 === 0,
    });
    const added = item.length + (items.length ? 1 : 0);
    if (length + added > bytes) break;
    items.push(item);
    length += added;
  }
  const body =
    length <= bytes ? `{"data":[${items.join(',')}],"pad":"${'x'.repeat(bytes - length)}"}` : `{"pad":"${'x'.repeat(Math.max(0, bytes - 10))}"}`;
  return Buffer.from(body);
}

export const benchFloorRoutes = (): FastifyPluginAsyncZod => async (app) => {
  // Built once per size, so that serving it costs only what every answer costs.
  const cache = new Map<number, Buffer>();
  const precomputed = (bytes: number): Buffer => {
    let body = cache.get(bytes);
    if (!body) {
      if (cache.size >= MAX_CACHED_SIZES) cache.delete(cache.keys().next().value as number);
      body = floorBody(bytes);
      cache.set(bytes, body);
    }
    return body;
  };
  app.get(
    BENCH_FLOOR_PATH,
    {
      schema: {
        hide: true,
        querystring: z.object({
          bytes: z.coerce
            .number({ error: BYTES_MESSAGE })
            .int({ error: BYTES_MESSAGE })
            .min(BENCH_FLOOR_MIN_BYTES, { error: BYTES_MESSAGE })
            .max(BENCH_FLOOR_MAX_BYTES, { error: BYTES_MESSAGE }),
        }),
      },
      config: { public: true },
    },
    (request, reply) => reply.type('application/json; charset=utf-8').send(precomputed(request.query.bytes)),
  );
};
