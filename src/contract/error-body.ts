import { z } from 'zod';

/** The error body of every failed call (docs/api.md). */
export const errorBodySchema = z.object({
  error: z.object({
    status: z.number().int().min(400).max(599),
    class_name: z.string(),
    developer_message: z.string(),
    user_message: z.object({ message: z.string() }),
    more_info: z.array(z.string()),
  }),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The error answers a route documents beyond the ones every route of its kind can answer
 * (server/http/api-document.ts adds those): e.g. `...errorAnswers(403, 404)`.
 */
export const errorAnswers = <S extends number>(...statuses: S[]) =>
  Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<S, typeof errorBodySchema>;
