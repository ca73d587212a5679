import { eq, sql } from 'drizzle-orm';
import { STATUS_MAIL_STEPS, type StatusMailStep } from '../../src/domain/status-mails.ts';
import { users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { unauthorized } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';

/**
 * The photographer's switches for the order status mails (issue 34). What is kept is the list of
 * mails turned off, so a mail added later reaches everyone until they turn it off.
 */
const switches = (off: readonly string[]) => ({ data: Object.fromEntries(STATUS_MAIL_STEPS.map((step) => [step, !off.includes(step)])) as Record<StatusMailStep, boolean> });

export async function statusMailSwitches(deps: ServerDeps, actor: Actor | null) {
  if (!actor) throw unauthorized();
  const [row] = await deps.db.select({ off: users.statusMailsOff }).from(users).where(eq(users.guid, actor.user.guid));
  return switches(row?.off ?? []);
}

export async function changeStatusMail(deps: ServerDeps, actor: Actor | null, input: { step: StatusMailStep; on: boolean }) {
  if (!actor) throw unauthorized();
  // One statement, so two switches flipped at once both hold.
  const [row] = await deps.db
    .update(users)
    .set({
      statusMailsOff: input.on
        ? sql`array_remove(${users.statusMailsOff}, ${input.step})`
        : sql`case when ${input.step} = any(${users.statusMailsOff}) then ${users.statusMailsOff} else array_append(${users.statusMailsOff}, ${input.step}) end`,
    })
    .where(eq(users.guid, actor.user.guid))
    .returning({ off: users.statusMailsOff });
  return switches(row?.off ?? []);
}
