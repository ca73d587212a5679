/**
 * The dropdowns of the calculator and the builder (src/ui/list-select.tsx): the sizes of
 * docs/orders.md §9 ('Dropdown sizes 400 px (50 px mount size), width 150 px') and the keyboard of the
 * WAI-ARIA select-only combobox. The calculator has the same component as the builder's sidebar
 * (order-builder.spec.ts checks the builder's own lists) and needs no uploaded order.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { choose, combo, listOf, signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

async function openCalculator(page: Page) {
  await page.goto('/login');
  await signIn(page);
  await page.goto('/calculate');
  await expect(page.getByRole('heading', { name: 'PRICE CALCULATOR' })).toBeVisible();
}

/** The computed max-height and width of an open list, in CSS px. */
const sizeOf = (list: Locator) => list.evaluate((el) => ({ maxHeight: getComputedStyle(el).maxHeight, width: el.getBoundingClientRect().width }));

/** The text of the option the combobox names as active (aria-activedescendant). */
const activeOption = (box: Locator) =>
  box.evaluate((el) => document.getElementById(el.getAttribute('aria-activedescendant') ?? '')?.textContent ?? '');

/** Whether an option is in its list's visible part: wholly, or from its top when taller than the list. */
const inView = (page: Page, label: string, text: string) =>
  listOf(page, label)
    .getByRole('option', { name: text, exact: true })
    .evaluate((option) => {
      const list = option.parentElement?.getBoundingClientRect();
      const box = option.getBoundingClientRect();
      return Boolean(list && box.top >= list.top - 0.5 && box.top < list.bottom && (box.bottom <= list.bottom + 0.5 || box.height > list.height));
    });

test.use({ viewport: { width: 1280, height: 900 } });

test('lists open at most 400 px tall (50 px for MOUNT SIZE), 150 px wide, and scroll', async ({ page }) => {
  await openCalculator(page);
  await combo(page, 'Paper Type').click();
  const papers = listOf(page, 'Paper Type');
  await expect(papers).toBeVisible();
  expect(await sizeOf(papers)).toEqual({ maxHeight: '400px', width: 150 });
  expect(await papers.evaluate((el) => el.clientHeight <= 400)).toBe(true);
  await page.keyboard.press('Escape');

  await choose(page, 'Paper Type', 'Lustre');
  await choose(page, 'Print Size', '8x10 — $3.10');
  await choose(page, 'Finishing Service', 'MOUNT');
  await combo(page, 'MOUNT SIZE').click();
  const mounts = listOf(page, 'MOUNT SIZE');
  await expect(mounts).toBeVisible();
  expect(await sizeOf(mounts)).toEqual({ maxHeight: '50px', width: 150 });
  // Three entries do not fit in 50 px: the list scrolls, and keeps the active entry in view.
  expect(await mounts.evaluate((el) => el.clientHeight <= 50 && el.scrollHeight > el.clientHeight)).toBe(true);
  await page.keyboard.press('End');
  const last = await activeOption(combo(page, 'MOUNT SIZE'));
  expect(await inView(page, 'MOUNT SIZE', last)).toBe(true);
  expect(await inView(page, 'MOUNT SIZE', 'Select')).toBe(false);
  await page.keyboard.press('Home');
  expect(await inView(page, 'MOUNT SIZE', 'Select')).toBe(true);
  await page.keyboard.press('Escape');
  await expect(combo(page, 'MOUNT SIZE')).toBeFocused();
});

test('the keyboard: open, move, type ahead, choose, close, leave; a blocked list says why', async ({ page }) => {
  await openCalculator(page);
  const paper = combo(page, 'Paper Type');
  const size = combo(page, 'Print Size');

  // Blocked: focusable, and a key that would open it raises the spec's alert instead.
  await size.focus();
  await expect(size).toHaveAttribute('aria-disabled', 'true');
  const alert = new Promise<string>((resolve) => page.once('dialog', (d) => void d.accept().then(() => resolve(d.message()))));
  await page.keyboard.press('Enter');
  expect(await alert).toBe('You must select a Paper Type first.');
  await expect(listOf(page, 'Print Size')).toHaveCount(0);

  // Alt+Down opens at the chosen entry; End and Home move to the ends.
  await paper.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(listOf(page, 'Paper Type')).toBeVisible();
  await expect(paper).toHaveAttribute('aria-expanded', 'true');
  expect(await activeOption(paper)).toBe('Select a paper');
  await page.keyboard.press('End');
  expect(await activeOption(paper)).toMatch(/^Deckled Circle/);
  await page.keyboard.press('Home');
  expect(await activeOption(paper)).toBe('Select a paper');
  await expect(listOf(page, 'Paper Type').getByRole('option', { name: 'Select a paper' })).toHaveAttribute('aria-selected', 'true');

  // Escape closes without choosing.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect(listOf(page, 'Paper Type')).toHaveCount(0);
  await expect(paper).toHaveText('Select a paper');

  // Typing opens the list at the first match; more letters narrow it; Enter chooses and closes.
  await page.keyboard.type('me');
  await expect(listOf(page, 'Paper Type')).toBeVisible();
  expect(await activeOption(paper)).toBe('Metallic');
  await page.keyboard.press('Enter');
  await expect(listOf(page, 'Paper Type')).toHaveCount(0);
  await expect(paper).toHaveText('Metallic');
  await expect(paper).toBeFocused();

  // Tab closes an open list without choosing and moves on to the next dropdown.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await expect(listOf(page, 'Paper Type')).toHaveCount(0);
  await expect(paper).toHaveText('Metallic');
  await expect(size).toBeFocused();

  // Space opens, Down moves past the prompt, Enter chooses: no longer blocked.
  await page.keyboard.press(' ');
  await page.keyboard.press('ArrowDown');
  const first = await activeOption(size);
  expect(first).toMatch(/^4x6 — \$/);
  await page.keyboard.press('Enter');
  await expect(size).toHaveText(first);
  await expect(combo(page, 'Finishing Service')).not.toHaveAttribute('aria-disabled', 'true');

  // The mouse: a click outside closes the list.
  await paper.click();
  await expect(listOf(page, 'Paper Type')).toBeVisible();
  await page.getByRole('heading', { name: 'PRICE CALCULATOR' }).click();
  await expect(listOf(page, 'Paper Type')).toHaveCount(0);
  await expect(paper).toHaveText('Metallic');
});

test('an open list passes axe and fits a 320 px phone', async ({ page }) => {
  await openCalculator(page);
  await combo(page, 'Paper Type').click();
  await expect(listOf(page, 'Paper Type')).toBeVisible();
  await expectAccessible(page, 'calculator, a list open');
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 320, height: 640 });
  await choose(page, 'Paper Type', 'Lustre');
  await combo(page, 'Print Size').click();
  const list = listOf(page, 'Print Size');
  await expect(list).toBeVisible();
  const box = await list.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 320).toBe(true);
  await expectAccessible(page, 'calculator, a list open');
  // Scrolling the page closes the list: it would slide over the navigation bar.
  await page.mouse.move(300, 600);
  await page.mouse.wheel(0, 200);
  await expect(list).toHaveCount(0);
});
