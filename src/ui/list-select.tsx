import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PAGE_STEP, TYPE_AHEAD_RESET_MS, edgeEnabled, keyAction, listFit, moveBy, nextEnabled, typeAhead, type ListFit, type ListOption } from './list-select-keys.ts';
import './list-select.css';

export type { ListOption } from './list-select-keys.ts';

// The open list's height (docs/orders.md §9: 'Dropdown sizes 400 px (50 px mount size)').
const DEFAULT_MAX_HEIGHT_PX = 400;
export const MOUNT_SIZE_MAX_HEIGHT_PX = 50;

/** Scrolls the list, not the page, so that the item shows: wholly, or from its start when taller than the list. */
function keepInView(box: HTMLElement, item: Element | null): void {
  if (!(item instanceof HTMLElement)) return;
  // An entry taller than the list (a wrapped name in the 50 px mount list) shows its start.
  if (item.offsetTop < box.scrollTop || item.offsetHeight > box.clientHeight) box.scrollTop = item.offsetTop;
  else if (item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = item.offsetTop + item.offsetHeight - box.clientHeight;
}

export interface ListSelectProps {
  label: string;
  value: string;
  options: readonly ListOption[];
  onChange: (value: string) => void;
  /** While set, the select stays focusable but refuses to open and says this in an alert. */
  blockedBecause?: string | null;
  /** The open list's greatest height in CSS px; longer lists scroll. */
  maxHeight?: number;
}

/**
 * A select whose open list can be sized (docs/orders.md §9: 400 px tall, 50 px for the mount size,
 * 150 px wide), which a native <select> popup cannot be. It follows the WAI-ARIA APG
 * "select-only combobox": focus stays on the combobox, the active option is named by
 * aria-activedescendant, and the keys are those of src/ui/list-select-keys.ts.
 *
 * Blocked (docs/orders.md §4: 'You must select a Paper Type first.'), it stays focusable and refuses
 * to open with an alert saying why; aria-disabled rather than no focus, because a control that
 * cannot be reached cannot explain itself.
 *
 * The options are rendered only while the list is open: a closed select costs one element.
 */
export function ListSelect(props: ListSelectProps) {
  const { label, value, options, onChange, blockedBecause, maxHeight = DEFAULT_MAX_HEIGHT_PX } = props;
  const id = useId();
  const labelId = `${id}-label`;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const combo = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const search = useRef({ text: '', at: 0 });
  // Where the select was on screen when its list opened.
  const openedAt = useRef(0);
  const blocked = Boolean(blockedBecause);
  const selected = options.findIndex((o) => o.value === value);

  const openAt = (index: number) => {
    setActive(index >= 0 ? index : selected >= 0 ? selected : edgeEnabled(options, 'first'));
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    search.current = { text: '', at: 0 };
  };
  const choose = (index: number) => {
    const option = options[index];
    close();
    if (option && !option.disabled && option.value !== value) onChange(option.value);
  };

  // Where the list opens: below, or above when only there it fits (as a native popup does),
  // never scrolling the page, which would slide the options under a resting pointer.
  const [fit, setFit] = useState<ListFit | null>(null);
  // Measured again when options arrive while open (a print size's finishing).
  const count = options.length;
  useLayoutEffect(() => {
    const box = list.current;
    const anchor = combo.current;
    if (!open || !box || !anchor) return;
    const rect = anchor.getBoundingClientRect();
    openedAt.current = rect.top;
    const next = listFit({ above: rect.top, below: window.innerHeight - rect.bottom, content: count === 0 ? 0 : box.scrollHeight, maxHeight });
    // The height is set at once, so the active option is brought into view in the final list.
    box.style.maxHeight = `${next.maxHeight}px`;
    keepInView(box, box.querySelector('[aria-selected="true"]'));
    setFit(next);
  }, [open, maxHeight, count]);
  // The active option is kept in view inside the list (not by scrolling the page).
  useLayoutEffect(() => {
    if (open && active >= 0 && list.current) keepInView(list.current, list.current.children[active] ?? null);
  }, [open, active]);
  // The list belongs to where its select was: once the page scrolls or a resize moves the select,
  // it closes (it would slide over the navigation bar). A scroll event is dispatched a frame after
  // the scroll, so one that brought the select into view as it was clicked arrives after the list
  // opened: only a select that really moved closes its list.
  useEffect(() => {
    if (!open) return undefined;
    const away = (e: Event) => {
      if (e.target instanceof Node && list.current?.contains(e.target)) return;
      const top = combo.current?.getBoundingClientRect().top ?? openedAt.current;
      if (Math.abs(top - openedAt.current) < 1) return;
      setOpen(false);
      search.current = { text: '', at: 0 };
    };
    window.addEventListener('scroll', away, true);
    window.addEventListener('resize', away);
    return () => {
      window.removeEventListener('scroll', away, true);
      window.removeEventListener('resize', away);
    };
  }, [open]);

  const refuse = () => {
    window.alert(blockedBecause);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (blocked) {
      if (e.key === 'Tab' || e.key === 'Shift') return;
      e.preventDefault();
      refuse();
      return;
    }
    const now = Date.now();
    const typing = search.current.text !== '' && now - search.current.at < TYPE_AHEAD_RESET_MS;
    const action = keyAction(e, open, typing);
    const from = open ? active : selected;
    switch (action.kind) {
      case 'none':
        return;
      case 'closeAndLeave':
        // Tab leaves without choosing (focus moves on by default): an arrow key only points at an
        // option, and choosing a paper by accident would reset the size and finishing after it.
        close();
        return;
      case 'open':
        openAt(action.move === 'selected' ? -1 : edgeEnabled(options, action.move));
        break;
      case 'close':
        close();
        break;
      case 'select':
        choose(active);
        break;
      case 'move': {
        const to = {
          next: () => nextEnabled(options, active, 1),
          previous: () => nextEnabled(options, active, -1),
          first: () => edgeEnabled(options, 'first'),
          last: () => edgeEnabled(options, 'last'),
          pageUp: () => moveBy(options, active, -PAGE_STEP),
          pageDown: () => moveBy(options, active, PAGE_STEP),
        }[action.to]();
        if (to >= 0) setActive(to);
        break;
      }
      case 'type': {
        const text = (typing ? search.current.text : '') + action.char;
        search.current = { text, at: now };
        const found = typeAhead(options, text, from);
        if (!open) openAt(found);
        else if (found >= 0) setActive(found);
        break;
      }
    }
    e.preventDefault();
  };

  const shown = options[selected]?.label ?? '';
  return (
    <div className={blocked ? 'list-select is-blocked' : 'list-select'}>
      {/* A click on the label focuses the select, as a <label> does for a native one. */}
      <span id={labelId} className="list-select-label" onClick={() => combo.current?.focus()}>
        {label}
      </span>
      <div className="list-select-anchor">
        <div
          ref={combo}
          role="combobox"
          tabIndex={0}
          className="list-select-button"
          aria-labelledby={labelId}
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
          aria-disabled={blocked || undefined}
          // The chosen value (a guid) for scripts and tests, as a native select's value is.
          data-value={value}
          title={shown}
          onKeyDown={onKeyDown}
          onBlur={() => open && close()}
          onClick={() => {
            if (blocked) refuse();
            else if (open) close();
            else openAt(-1);
          }}
        >
          <span className="list-select-value">{shown}</span>
        </div>
        {open ? (
          <div
            ref={list}
            id={listId}
            role="listbox"
            aria-labelledby={labelId}
            tabIndex={-1}
            className={fit?.side === 'above' ? 'list-select-list is-above' : 'list-select-list'}
            style={{ maxHeight: fit?.maxHeight ?? maxHeight }}
            // Focus stays on the combobox while the list is clicked or scrolled.
            onMouseDown={(e) => e.preventDefault()}
          >
            {options.map((o, i) => (
              <div
                key={o.value}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                aria-disabled={o.disabled || undefined}
                className={['list-select-option', i === active ? 'is-active' : '', o.value === value ? 'is-chosen' : ''].join(' ').trim()}
                onMouseMove={() => !o.disabled && setActive(i)}
                onClick={() => !o.disabled && choose(i)}
              >
                {o.label}
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
