import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer } from '../services/catalogue-cache.ts';

// Public, and revalidated on every use: a browser or the service worker asks with If-None-Match
// and gets an empty 304 while the catalogue is unchanged, and the new one as soon as it is loaded.
export const CATALOGUE_CACHE_CONTROL = 'public, no-cache';

type Coding = 'br' | 'gzip' | 'identity';

/**
 * The content coding to answer with, from an Accept-Encoding header: brotli, else gzip, else
 * none, honouring q-values (q=0 refuses) and `*`.
 */
export function preferredCoding(header: string | undefined): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (coding: Coding) => q.get(coding) ?? q.get('*') ?? 0;
  let best: Coding = 'identity';
  let bestWeight = 0;
  // Brotli first: on a tie it wins, being the smaller.
  for (const coding of ['br', 'gzip'] as const) {
    if (weight(coding) > bestWeight) {
      best = coding;
      bestWeight = weight(coding);
    }
  }
  return best;
}

/** True when an If-None-Match header names this answer, in any of its codings. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const bare = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
    return bare === '*' || bare === etag || bare === `${etag}-br` || bare === `${etag}-gzip`;
  });
}

/**
 * Sends a catalogue answer: 304 when the caller holds it already, else the ready-made bytes in
 * the best coding the caller takes. A strong ETag names one representation, so each coding has
 * its own (`"<hash>-br"`), and any of them revalidates.
 */
export function sendCachedAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  const coding = preferredCoding(request.headers['accept-encoding']);
  reply
    .header('cache-control', CATALOGUE_CACHE_CONTROL)
    .header('vary', 'Accept-Encoding')
    .header('etag', coding === 'identity' ? `"${answer.etag}"` : `"${answer.etag}-${coding}"`);
  if (matches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  if (coding !== 'identity') reply.header('content-encoding', coding);
  return reply.type('application/json; charset=utf-8').send(coding === 'identity' ? answer.body : answer[coding]);
}
