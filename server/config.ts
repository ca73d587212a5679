import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './adapters/storage/s3-storage.ts';
import { CRASH_POINTS, type CrashPoint } from './crash-point.ts';

/**
 * Every setting the lab API reads from its environment, validated once at start.
 * The names are part of the product's contract (README.md#configure): keep them stable.
 */
const PORT_MESSAGE = 'must be a whole number from 1 to 65535';
const TRUST_PROXY_RULE = 'must be false, true (one load balancer), the number of proxies in front, or their addresses (comma-separated IPs or CIDRs)';
export type TrustProxy = false | number | string[];
const WEBHOOK_KEY_RULE = 'must be 32 random bytes as 64 hex digits or base64, e.g. the output of `openssl rand -base64 32`';
// AES-256 takes a 32-byte key.
const WEBHOOK_KEY_BYTES = 32;

/** The key's bytes from its text (hex or base64), or null when it is not 32 bytes. */
export function webhookKeyBytes(text: string): Buffer | null {
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : null;
  return bytes?.length === WEBHOOK_KEY_BYTES ? bytes : null;
}

const configSchema = z
  .object({
    PORT: z.coerce
      .number({ error: PORT_MESSAGE })
      .int({ error: PORT_MESSAGE })
      .min(1, { error: PORT_MESSAGE })
      .max(65535, { error: PORT_MESSAGE })
      .default(8080),
    // Listen on every interface by default: a lab runs this behind its own proxy or on its LAN.
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    // Object storage in an S3-compatible bucket instead of files under DATA_DIR/objects.
    S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)').optional(),
    S3_ENDPOINT: z.url({ error: 'must be a URL such as https://s3.eu-central-1.wasabisys.com or http://127.0.0.1:9000' }).optional(),
    S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1').default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // Bucket in the path (http://host/bucket/key) rather than the host name: what MinIO and most
    // self-hosted stores need. Defaults to true when S3_ENDPOINT is set.
    S3_FORCE_PATH_STYLE: z.stringbool({ error: 'must be true or false' }).optional(),
    PUBLIC_URL: z.url({ error: 'must be a full URL such as https://orders.example-lab.com' }).optional(),
    ADMIN_EMAIL: z.email({ error: 'must be an email address' }).optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters long').optional(),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
    MAIL_FROM: z.string().min(3).default('Print Lab <orders@printlab.example>'),
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_test_… or sk_live_…)').optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_/, 'must be a Stripe publishable key (pk_test_… or pk_live_…)').optional(),
    // Points the Stripe SDK at another address (a local stub in tests); Stripe's own by default.
    STRIPE_API_URL: z.url({ error: 'must be a URL such as http://127.0.0.1:12111' }).optional(),
    INTERCOM_SECRET: z.string().min(1).optional(),
    // The Shopify app's API secret: /shopify-connect then needs Shopify's signed query (hmac).
    SHOPIFY_API_SECRET: z.string().min(1).optional(),
    // Seals partner webhooks' signing secrets in the database (AES-256-GCM): 32 random bytes, as
    // 64 hex digits or base64. Every API process needs the same one; without it the embedded
    // start makes one in DATA_DIR (services/webhook-secrets.ts).
    WEBHOOK_SECRET_KEY: z
      .string()
      .trim()
      .refine((v) => webhookKeyBytes(v) !== null, { message: WEBHOOK_KEY_RULE })
      .optional(),
    // Server and app errors go to Sentry (or a compatible service) when set; only logged without.
    SENTRY_DSN: z
      .url({ error: 'must be a Sentry DSN such as https://<key>@o0.ingest.sentry.io/<project>' })
      .regex(/^https?:\/\/[^@/]+@[^/]+\/.*\d+$/, 'must be a Sentry DSN such as https://<key>@o0.ingest.sentry.io/<project>')
      .optional(),
    // Tells reports from a lab's test installation apart from its real one.
    SENTRY_ENVIRONMENT: z.string().min(1).max(64).default('production'),
    // Behind a load balancer, take the caller's address from X-Forwarded-For (rate limits key on
    // it). Only the entries our own proxies added are believed: the caller writes the rest of the
    // header, so trusting all of it would let anyone pick the address a limit counts.
    TRUST_PROXY: z
      .string()
      .trim()
      .default('false')
      .transform((value, ctx): TrustProxy => {
        if (/^(false|0|no|off)$/i.test(value)) return false;
        // One load balancer in front: believe the one entry it added.
        if (/^(true|yes|on)$/i.test(value)) return 1;
        if (/^\d{1,2}$/.test(value)) return Number(value);
        const addresses = value.split(',').map((a) => a.trim());
        if (addresses.every((a) => isIP(a.split('/')[0] ?? '') !== 0 && /^[^/]+(\/\d{1,3})?$/.test(a))) return addresses;
        ctx.addIssue({ code: 'custom', message: TRUST_PROXY_RULE });
        return z.NEVER;
      }),
    // Sign-in attempts one address may make a minute (a studio behind one router shares it).
    LOGIN_RATE_LIMIT: z.coerce
      .number({ error: 'must be a whole number of attempts a minute, 1 or more' })
      .int({ error: 'must be a whole number of attempts a minute, 1 or more' })
      .min(1, { error: 'must be a whole number of attempts a minute, 1 or more' })
      .default(10),
    // Email and referral-code lookups one address may make a minute: plenty for a person typing,
    // too few to walk the list of the lab's photographers.
    LOOKUP_RATE_LIMIT: z.coerce
      .number({ error: 'must be a whole number of lookups a minute, 1 or more' })
      .int({ error: 'must be a whole number of lookups a minute, 1 or more' })
      .min(1, { error: 'must be a whole number of lookups a minute, 1 or more' })
      .default(30),
    // The share of a referred photographer's paid order subtotal their referrer earns as credit.
    REFERRAL_CREDIT_PERCENT: z.coerce
      .number({ error: 'must be a percentage from 0 to 100' })
      .min(0, { error: 'must be a percentage from 0 to 100' })
      .max(100, { error: 'must be a percentage from 0 to 100' })
      .default(10),
    // How long after payment a photographer may still cancel an order the lab has not started.
    CANCEL_WINDOW_MINUTES: z.coerce
      .number({ error: 'must be a whole number of minutes, 0 or more' })
      .int({ error: 'must be a whole number of minutes, 0 or more' })
      .min(0, { error: 'must be a whole number of minutes, 0 or more' })
      .max(7 * 24 * 60, { error: 'must be at most a week (10080 minutes)' })
      .default(30),
    // Where SEND TO VENDOR posts an order's JSON; without it the admin's send answers 422.
    VENDOR_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' })
      .default('info'),
    // 'production' keeps mail text out of the log when no SMTP server is configured.
    NODE_ENV: z.string().optional(),
    // Where the built client lives; npm start builds it into ./dist.
    CLIENT_DIR: z.string().min(1).default('./dist'),
    // Benchmarks only (npm run bench): adds the hidden static-answer route the bench compares with.
    BENCH_FLOOR: z.stringbool({ error: 'must be true or false' }).default(false),
    // Crash test only (crash-point.ts): the process kills itself at this point.
    LAB_TEST_CRASH_AT: z.enum(CRASH_POINTS, { error: `must be one of ${CRASH_POINTS.join(', ')}` }).optional(),
  })
  .refine((c) => !(c.LAB_TEST_CRASH_AT && c.NODE_ENV === 'production'), {
    message: 'is for the crash test only and is refused with NODE_ENV=production',
    path: ['LAB_TEST_CRASH_AT'],
  })
  .refine((c) => c.WEBHOOK_SECRET_KEY || !(c.NODE_ENV === 'production' && c.DATABASE_URL), {
    // Several processes share one PostgreSQL: a key file in each one's DATA_DIR would differ.
    message: `is needed with NODE_ENV=production and DATABASE_URL, the same on every API process (${WEBHOOK_KEY_RULE})`,
    path: ['WEBHOOK_SECRET_KEY'],
  })
  .refine((c) => Boolean(c.ADMIN_EMAIL) === Boolean(c.ADMIN_PASSWORD), {
    message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  })
  .refine((c) => Boolean(c.STRIPE_SECRET_KEY) === Boolean(c.STRIPE_PUBLISHABLE_KEY), {
    message: 'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
    path: ['STRIPE_PUBLISHABLE_KEY'],
  })
  .refine((c) => Boolean(c.S3_ACCESS_KEY_ID) === Boolean(c.S3_SECRET_ACCESS_KEY), {
    message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, to use the instance role)',
    path: ['S3_SECRET_ACCESS_KEY'],
  })
  .refine((c) => c.S3_BUCKET || !(c.S3_ENDPOINT || c.S3_ACCESS_KEY_ID || c.S3_FORCE_PATH_STYLE !== undefined), {
    message: 'is needed with the other S3_ settings (without it photos are kept under DATA_DIR/objects)',
    path: ['S3_BUCKET'],
  });

export type RawConfig = z.infer<typeof configSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Object storage in S3 (or an S3-compatible store); the local store under DATA_DIR when unset. */
  s3: S3Settings | undefined;
  publicUrl: string | undefined;
  admin: { email: string; password: string } | undefined;
  intercomSecret: string | undefined;
  shopifyApiSecret: string | undefined;
  /** The key sealing webhook secrets (WEBHOOK_SECRET_KEY); undefined: the key file in DATA_DIR. */
  webhookSecretKey: Buffer | undefined;
  /** Error reporting; undefined when SENTRY_DSN is not set. */
  sentry: { dsn: string; environment: string } | undefined;
  smtpUrl: string | undefined;
  stripe: { secretKey: string; publishableKey: string; apiUrl: string | undefined } | undefined;
  mailFrom: string;
  /** false; the number of proxies in front whose X-Forwarded-For entries are believed; or their addresses. */
  trustProxy: TrustProxy;
  loginRateLimit: number;
  lookupRateLimit: number;
  referralCreditPercent: number;
  cancelWindowMinutes: number;
  vendorApiUrl: string | undefined;
  logLevel: RawConfig['LOG_LEVEL'];
  clientDir: string;
  /** NODE_ENV=production. */
  production: boolean;
  /** Serve the bench's static floor route (server/routes/bench-floor-routes.ts); never in production. */
  benchFloor: boolean;
  /** The crash test's point where the process kills itself (crash-point.ts); never in production. */
  crashAt: CrashPoint | undefined;
}

export class ConfigError extends Error {}

/** Reads the environment; throws ConfigError with one line naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as a shell user expects from `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'configuration');
    // Never echo a secret back into a log.
    const secret = /PASSWORD|SECRET|DATABASE_URL|SMTP_URL|STRIPE|SENTRY_DSN/.test(name);
    const got = name in present && !secret ? ` (got ${JSON.stringify(present[name])})` : '';
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${got}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    s3: c.S3_BUCKET
      ? {
          bucket: c.S3_BUCKET,
          region: c.S3_REGION,
          endpoint: c.S3_ENDPOINT,
          forcePathStyle: c.S3_FORCE_PATH_STYLE ?? Boolean(c.S3_ENDPOINT),
          credentials: c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY } : undefined,
        }
      : undefined,
    publicUrl: c.PUBLIC_URL,
    admin: c.ADMIN_EMAIL && c.ADMIN_PASSWORD ? { email: c.ADMIN_EMAIL, password: c.ADMIN_PASSWORD } : undefined,
    intercomSecret: c.INTERCOM_SECRET,
    shopifyApiSecret: c.SHOPIFY_API_SECRET,
    webhookSecretKey: c.WEBHOOK_SECRET_KEY ? (webhookKeyBytes(c.WEBHOOK_SECRET_KEY) ?? undefined) : undefined,
    sentry: c.SENTRY_DSN ? { dsn: c.SENTRY_DSN, environment: c.SENTRY_ENVIRONMENT } : undefined,
    smtpUrl: c.SMTP_URL,
    stripe:
      c.STRIPE_SECRET_KEY && c.STRIPE_PUBLISHABLE_KEY ? { secretKey: c.STRIPE_SECRET_KEY, publishableKey: c.STRIPE_PUBLISHABLE_KEY, apiUrl: c.STRIPE_API_URL } : undefined,
    mailFrom: c.MAIL_FROM,
    trustProxy: c.TRUST_PROXY,
    loginRateLimit: c.LOGIN_RATE_LIMIT,
    lookupRateLimit: c.LOOKUP_RATE_LIMIT,
    referralCreditPercent: c.REFERRAL_CREDIT_PERCENT,
    cancelWindowMinutes: c.CANCEL_WINDOW_MINUTES,
    vendorApiUrl: c.VENDOR_API_URL,
    logLevel: c.LOG_LEVEL,
    clientDir: resolve(c.CLIENT_DIR),
    production: c.NODE_ENV === 'production',
    benchFloor: c.BENCH_FLOOR,
    crashAt: c.LAB_TEST_CRASH_AT,
  };
}
