/** S3 numbers the parts of an upload from 1 to 10,000; the local store keeps the same rule. */
export const MAX_PARTS = 10_000;
