import { hash, verify } from '@node-rs/argon2';

export { MIN_PASSWORD_LENGTH } from '../../src/domain/password-rule.ts';

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1): OWASP's recommended minimum,
// slow enough to resist guessing, quick enough for a sign-in.
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash must never sign anyone in, nor crash the request.
    return false;
  }
}

/**
 * Verified against when the email is unknown, so that a wrong email costs as long as a wrong
 * password and response time does not reveal which accounts exist.
 */
let dummyHash: Promise<string> | undefined;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hash('not-a-real-password-used-only-for-timing');
  return dummyHash;
}
