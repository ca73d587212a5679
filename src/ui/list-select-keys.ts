/**
 * The pure parts of the select-only combobox (src/ui/list-select.tsx): which option an arrow,
 * Home/End, a page key or typed letters land on, and what a key does. Kept apart from React so
 * the rules are unit-tested (tests/unit/list-select-keys.test.ts).
 */

export interface ListOption {
  value: string;
  label: string;
  disabled?: boolean;
}

// How far Page Up / Page Down move, as in the APG example (about a screenful of a 400 px list).
export const PAGE_STEP = 10;

// Letters typed within this long of each other make one search ('ma' finds 'Matte'), as in the
// APG example and native selects.
export const TYPE_AHEAD_RESET_MS = 500;

/**
 * The nearest enabled option from `from` going `step` (+1 down, -1 up), `from` itself excluded;
 * `from` when there is none further that way (the list does not wrap, like a native select).
 */
export function nextEnabled(options: readonly ListOption[], from: number, step: 1 | -1): number {
  for (let i = from + step; i >= 0 && i < options.length; i += step) if (!options[i]?.disabled) return i;
  return from;
}

/** The enabled option `count` enabled options away (a page key), stopping at the ends. */
export function moveBy(options: readonly ListOption[], from: number, count: number): number {
  const step = count < 0 ? -1 : 1;
  let at = from;
  for (let n = 0; n < Math.abs(count); n++) {
    const next = nextEnabled(options, at, step);
    if (next === at) break;
    at = next;
  }
  return at;
}

/** The first (or last) enabled option; -1 when every option is disabled or there are none. */
export function edgeEnabled(options: readonly ListOption[], which: 'first' | 'last'): number {
  // nextEnabled answers its start when there is nothing that way: -1 there, options.length here.
  if (which === 'first') return nextEnabled(options, -1, 1);
  const last = nextEnabled(options, options.length, -1);
  return last === options.length ? -1 : last;
}

const starts = (option: ListOption | undefined, text: string) => Boolean(option && !option.disabled && option.label.toLowerCase().startsWith(text));

/**
 * The option typed letters point at (APG): the next option after `from` whose label starts with
 * the text, wrapping round; the same letter typed again and again steps through the options
 * starting with it. -1 when nothing matches (the active option then stays).
 */
export function typeAhead(options: readonly ListOption[], typed: string, from: number): number {
  const text = typed.toLowerCase();
  if (!text) return -1;
  const repeated = [...text].every((c) => c === text[0]);
  const n = options.length;
  // A longer search may still match the active option ('m' on Matte, then 'ma'); a repeated
  // letter moves on to the next option starting with it.
  const begin = repeated ? from + 1 : from;
  for (let k = 0; k < n; k++) {
    const i = (((begin + k) % n) + n) % n;
    if (starts(options[i], text)) return i;
  }
  if (repeated && text.length > 1) return typeAhead(options, text[0] ?? '', from);
  return -1;
}

/** What a key does to the combobox (APG select-only combobox keyboard interaction). */
export type KeyAction =
  | { kind: 'open'; move: 'selected' | 'first' | 'last' }
  | { kind: 'move'; to: 'next' | 'previous' | 'first' | 'last' | 'pageUp' | 'pageDown' }
  | { kind: 'select' }
  | { kind: 'close' }
  | { kind: 'closeAndLeave' }
  | { kind: 'type'; char: string }
  | { kind: 'none' };

export interface KeyInput {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** A key that types a letter, digit or sign (not Enter, Tab, arrows, or a shortcut). */
const printable = (e: KeyInput) => e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey;

/**
 * The key's action. `typing` is true while a type-ahead search is under way: Space then adds to
 * the search instead of choosing (an option's label may hold a space: 'Canvas - Gallery Wrap').
 */
export function keyAction(e: KeyInput, open: boolean, typing: boolean): KeyAction {
  if (!open) {
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp':
      case 'Enter':
      case ' ':
        return { kind: 'open', move: 'selected' };
      case 'Home':
        return { kind: 'open', move: 'first' };
      case 'End':
        return { kind: 'open', move: 'last' };
      default:
        return printable(e) ? { kind: 'type', char: e.key } : { kind: 'none' };
    }
  }
  switch (e.key) {
    case 'ArrowDown':
      return { kind: 'move', to: 'next' };
    case 'ArrowUp':
      // Alt+Up chooses the active option and closes (APG), like Enter.
      return e.altKey ? { kind: 'select' } : { kind: 'move', to: 'previous' };
    case 'Home':
      return { kind: 'move', to: 'first' };
    case 'End':
      return { kind: 'move', to: 'last' };
    case 'PageUp':
      return { kind: 'move', to: 'pageUp' };
    case 'PageDown':
      return { kind: 'move', to: 'pageDown' };
    case 'Enter':
      return { kind: 'select' };
    case ' ':
      return typing ? { kind: 'type', char: ' ' } : { kind: 'select' };
    case 'Escape':
      return { kind: 'close' };
    case 'Tab':
      return { kind: 'closeAndLeave' };
    default:
      return printable(e) ? { kind: 'type', char: e.key } : { kind: 'none' };
  }
}

// Room kept between an open list and the window's edge, so its border and shadow show.
export const LIST_EDGE_GAP_PX = 8;

export interface ListFit {
  side: 'below' | 'above';
  maxHeight: number;
}

/**
 * Where an open list goes and how tall it may be: below its select when it fits there, else
 * above when it fits there, else on the roomier side, cut to the room (it scrolls). `above` and
 * `below` are the window's room on each side of the select; `content` the list's full height.
 */
export function listFit(room: { above: number; below: number; content: number; maxHeight: number }): ListFit {
  const wanted = Math.min(room.content, room.maxHeight);
  const below = room.below - LIST_EDGE_GAP_PX;
  const above = room.above - LIST_EDGE_GAP_PX;
  if (below >= wanted) return { side: 'below', maxHeight: room.maxHeight };
  if (above >= wanted) return { side: 'above', maxHeight: room.maxHeight };
  return below >= above ? { side: 'below', maxHeight: Math.max(0, below) } : { side: 'above', maxHeight: Math.max(0, above) };
}
