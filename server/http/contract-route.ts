import type { Endpoint } from '../../src/contract/endpoint.ts';

/** The schema part of a route's options, with the endpoint's own types for the type provider. */
interface RouteSchema<E extends Endpoint> {
  tags: string[];
  summary: string;
  description?: string;
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: E['answers'];
}

/**
 * A route's options from its endpoint in the contract (src/contract): method, path, the API
 * document's words and every schema. A route spreads this and adds its handler and its own
 * server-side config (rate limits, multi-line fields):
 * `app.route({ ...routeOf(statusEndpoints.status), handler })`, or with `config: { ...routeOf(e).config, … }`.
 */
export function routeOf<E extends Endpoint>(endpoint: E) {
  return {
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [...endpoint.tags],
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      // Only the parts the endpoint has: an absent schema is no key at all, as Fastify expects.
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: endpoint.answers,
    } as RouteSchema<E>,
    config: (endpoint.public ? { public: true } : {}) as { public?: true },
  };
}
