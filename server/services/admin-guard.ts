import { forbidden, unauthorized } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';

/** The lab's admin calls (docs/lab-rules.md §5): 401 signed out, 403 for anyone but an admin (an admin acting as a photographer included). */
export const requireAdmin = (actor: Actor | null): Actor => {
  if (!actor) throw unauthorized();
  if (!actor.user.isAdmin) throw forbidden();
  return actor;
};
