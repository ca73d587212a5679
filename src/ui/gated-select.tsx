import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';

/**
 * A labelled select that can be blocked: while a choice before it is missing it stays focusable
 * but refuses to open, and says why in an alert (orders.md §4: 'You must select a Paper Type
 * first.'). aria-disabled rather than disabled, because a disabled select gets no clicks to
 * explain itself with.
 */
export function GatedSelect(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  blockedBecause?: string | null;
  children: ReactNode;
}) {
  const blocked = Boolean(props.blockedBecause);
  const refuse = (e: MouseEvent | KeyboardEvent) => {
    if (!blocked) return;
    if ('key' in e && (e.key === 'Tab' || e.key === 'Shift')) return;
    e.preventDefault();
    window.alert(props.blockedBecause);
  };
  return (
    <label className={blocked ? 'gated is-blocked' : 'gated'}>
      {props.label}
      <select
        value={props.value}
        aria-disabled={blocked || undefined}
        onMouseDown={refuse}
        onKeyDown={refuse}
        onChange={(e) => {
          if (!blocked) props.onChange(e.target.value);
        }}
      >
        {props.children}
      </select>
    </label>
  );
}
