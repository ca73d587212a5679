/** The part of autocannon 9's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  /** One request of a sequence each connection sends in turn (then starts over, with a fresh context). */
  export interface RequestTemplate {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    // Method syntax: each caller types the context it keeps (parameters of methods are bivariant).
    /** Builds the request just before it is sent; `context` lives for one pass of the sequence. */
    setupRequest?(req: Record<string, unknown>, context: object): Record<string, unknown>;
    onResponse?(status: number, body: string, context: object): void;
  }

  export interface Options {
    /** Several URLs: the connections are spread over them in turn. */
    url: string | string[];
    requests?: RequestTemplate[];
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Requests a second over all connections; latencies are then corrected for coordinated omission. */
    overallRate?: number;
    /** Seconds to wait for an answer. */
    timeout?: number;
  }

  export interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
