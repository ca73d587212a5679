/**
 * The serializer of answers made of many rows (the orders list): JSON.stringify as it is.
 *
 * The app's serializer (fastify-type-provider-zod) first encodes the whole answer through the
 * route's zod schema, copying and checking every value of every row: on the bench it was about a
 * tenth of the orders list's CPU, and the copies a good part of its garbage collection. Where a
 * route uses this, its service's return type is checked against the schema by TypeScript (the
 * type provider), and the route's API tests parse its answers with the same schema.
 */
export const plainJsonSerializer = () => (data: unknown) => JSON.stringify(data);
