import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIST_EDGE_GAP_PX, edgeEnabled, keyAction, listFit, moveBy, nextEnabled, typeAhead, type KeyInput, type ListOption } from '../../src/ui/list-select-keys.ts';

const opts = (...labels: string[]): ListOption[] => labels.map((label) => ({ value: label, label, disabled: label.startsWith('-') }));
const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, ...mods });

describe('the dropdown: next and previous enabled option', () => {
  const list = opts('Choose…', 'Lustre', '-Gone', 'Matte', '-Withdrawn');

  it('steps over disabled options and stops at the ends (no wrap, like a native select)', () => {
    expect(nextEnabled(list, 1, 1)).toBe(3);
    expect(nextEnabled(list, 3, -1)).toBe(1);
    expect(nextEnabled(list, 3, 1)).toBe(3);
    expect(nextEnabled(list, 0, -1)).toBe(0);
  });

  it('first and last skip disabled options; none enabled is -1', () => {
    expect(edgeEnabled(list, 'first')).toBe(0);
    expect(edgeEnabled(list, 'last')).toBe(3);
    expect(edgeEnabled(opts('-a', '-b'), 'first')).toBe(-1);
    expect(edgeEnabled(opts('-a', '-b'), 'last')).toBe(-1);
    expect(edgeEnabled([], 'last')).toBe(-1);
  });

  it('a page key moves by enabled options and stops at the ends', () => {
    const many = opts(...Array.from({ length: 30 }, (_, i) => `Size ${i}`));
    expect(moveBy(many, 0, 10)).toBe(10);
    expect(moveBy(many, 25, 10)).toBe(29);
    expect(moveBy(many, 5, -10)).toBe(0);
  });

  it('always lands on an enabled option, or stays put', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), fc.nat(29), fc.constantFrom(1 as const, -1 as const), (disabled, rawFrom, step) => {
        const list2 = disabled.map((d, i) => ({ value: String(i), label: String(i), disabled: d }));
        const from = rawFrom % list2.length;
        const to = nextEnabled(list2, from, step);
        // Stayed put: nothing enabled lies that way. Moved: onto an enabled option, skipping only disabled ones.
        const between = list2.slice(Math.min(from, to) + 1, Math.max(from, to));
        const beyond = step === 1 ? list2.slice(from + 1) : list2.slice(0, from);
        const ok = to === from ? beyond.every((o) => o.disabled) : list2[to]?.disabled === false && between.every((o) => o.disabled);
        expect(ok).toBe(true);
      }),
    );
  });
});

describe('the dropdown: type-ahead', () => {
  const papers = opts('Choose…', 'Lustre', 'Matte', 'Metallic', 'Brushed Canvas', 'Canvas - Gallery Wrap', 'Canvas - White Wrap');

  it('finds the first option after the active one that starts with the typed text, ignoring case', () => {
    expect(typeAhead(papers, 'm', 0)).toBe(2);
    expect(typeAhead(papers, 'me', 0)).toBe(3);
    expect(typeAhead(papers, 'canvas - w', 0)).toBe(6);
    expect(typeAhead(papers, 'x', 0)).toBe(-1);
    expect(typeAhead(papers, '', 0)).toBe(-1);
  });

  it('a longer search keeps the active option when it still matches', () => {
    expect(typeAhead(papers, 'ma', 2)).toBe(2);
  });

  it('the same letter again steps through the options starting with it, wrapping round', () => {
    expect(typeAhead(papers, 'm', 2)).toBe(3);
    expect(typeAhead(papers, 'mm', 2)).toBe(3);
    expect(typeAhead(papers, 'mmm', 3)).toBe(2);
    expect(typeAhead(papers, 'c', 5)).toBe(6);
    expect(typeAhead(papers, 'c', 6)).toBe(0);
  });

  it('never lands on a disabled option', () => {
    const list = [
      { value: 'a', label: 'Matte', disabled: true },
      { value: 'b', label: 'Metallic' },
    ];
    expect(typeAhead(list, 'm', -1)).toBe(1);
    expect(typeAhead(list, 'ma', -1)).toBe(-1);
  });
});

describe('the dropdown: what a key does (APG select-only combobox)', () => {
  it('closed: arrows, Enter, Space and Alt+Down open at the chosen option; Home and End at the ends', () => {
    for (const k of ['ArrowDown', 'ArrowUp', 'Enter', ' ']) expect(keyAction(key(k), false, false)).toEqual({ kind: 'open', move: 'selected' });
    expect(keyAction(key('ArrowDown', { altKey: true }), false, false)).toEqual({ kind: 'open', move: 'selected' });
    expect(keyAction(key('Home'), false, false)).toEqual({ kind: 'open', move: 'first' });
    expect(keyAction(key('End'), false, false)).toEqual({ kind: 'open', move: 'last' });
    expect(keyAction(key('l'), false, false)).toEqual({ kind: 'type', char: 'l' });
    expect(keyAction(key('Tab'), false, false)).toEqual({ kind: 'none' });
    expect(keyAction(key('Escape'), false, false)).toEqual({ kind: 'none' });
  });

  it('open: arrows move, Enter and Alt+Up choose, Escape closes, Tab closes and leaves', () => {
    expect(keyAction(key('ArrowDown'), true, false)).toEqual({ kind: 'move', to: 'next' });
    expect(keyAction(key('ArrowUp'), true, false)).toEqual({ kind: 'move', to: 'previous' });
    expect(keyAction(key('ArrowUp', { altKey: true }), true, false)).toEqual({ kind: 'select' });
    expect(keyAction(key('Home'), true, false)).toEqual({ kind: 'move', to: 'first' });
    expect(keyAction(key('End'), true, false)).toEqual({ kind: 'move', to: 'last' });
    expect(keyAction(key('PageDown'), true, false)).toEqual({ kind: 'move', to: 'pageDown' });
    expect(keyAction(key('Enter'), true, false)).toEqual({ kind: 'select' });
    expect(keyAction(key('Escape'), true, false)).toEqual({ kind: 'close' });
    expect(keyAction(key('Tab'), true, false)).toEqual({ kind: 'closeAndLeave' });
  });

  it('Space chooses, unless a type-ahead search is under way (labels hold spaces)', () => {
    expect(keyAction(key(' '), true, false)).toEqual({ kind: 'select' });
    expect(keyAction(key(' '), true, true)).toEqual({ kind: 'type', char: ' ' });
  });

  it('shortcuts are left to the browser', () => {
    expect(keyAction(key('r', { ctrlKey: true }), true, false)).toEqual({ kind: 'none' });
    expect(keyAction(key('r', { metaKey: true }), false, false)).toEqual({ kind: 'none' });
  });
});

describe('the dropdown: where the open list goes', () => {
  it('below at its full height when it fits there', () => {
    expect(listFit({ above: 100, below: 600, content: 900, maxHeight: 400 })).toEqual({ side: 'below', maxHeight: 400 });
    expect(listFit({ above: 100, below: 120, content: 90, maxHeight: 400 })).toEqual({ side: 'below', maxHeight: 400 });
  });

  it('above when only there it fits, as a native popup low on the screen', () => {
    expect(listFit({ above: 600, below: 100, content: 900, maxHeight: 400 })).toEqual({ side: 'above', maxHeight: 400 });
  });

  it('on the roomier side, cut to the room, when it fits nowhere (a phone held sideways)', () => {
    expect(listFit({ above: 150, below: 200, content: 900, maxHeight: 400 })).toEqual({ side: 'below', maxHeight: 200 - LIST_EDGE_GAP_PX });
    expect(listFit({ above: 250, below: 200, content: 900, maxHeight: 400 })).toEqual({ side: 'above', maxHeight: 250 - LIST_EDGE_GAP_PX });
  });

  it('the mount size list is 50 px wherever there is room for 50', () => {
    expect(listFit({ above: 0, below: 60, content: 300, maxHeight: 50 })).toEqual({ side: 'below', maxHeight: 50 });
  });
});
