import { expect, test } from '@playwright/test';
import { LOGGED_OUT, signIn } from './helpers.ts';

test('toasts close after 10 s, pause while hovered, and can be dragged away', async ({ page }) => {
  await page.clock.install();
  await page.goto('/login');
  await signIn(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  const toast = page.getByRole('status').filter({ hasText: LOGGED_OUT });
  await expect(toast).toBeVisible();
  // Hover once the sign-in screen has replaced the list: a long list's scrollbar going away
  // shifts the top-right toast from under a pointer placed before.
  await expect(page.getByRole('heading', { name: 'SIGN IN' })).toBeVisible();

  // Hovered: the countdown waits.
  await toast.hover();
  await page.clock.runFor(12_000);
  await expect(toast).toBeVisible();
  // Left alone: gone after 10 s.
  await page.mouse.move(10, 700);
  await page.clock.runFor(9_000);
  await expect(toast).toBeVisible();
  await page.clock.runFor(2_000);
  await expect(toast).toHaveCount(0);

  // A fresh notice, dragged sideways, is dismissed at once.
  await signIn(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(toast).toBeVisible();
  const box = await toast.boundingBox();
  if (!box) throw new Error('toast has no box');
  await page.mouse.move(box.x + 40, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 200, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(toast).toHaveCount(0);
});
