import { create } from 'zustand';

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  lines: string[];
  durationMs: number;
}

// Toasts close after 10 s on most screens and 5 s on account screens (docs/accounts.md §9).
export const TOAST_MS = 10_000;
export const ACCOUNT_TOAST_MS = 5_000;
const ACCOUNT_SCREENS = ['/account'];

let nextId = 1;

export const useToasts = create<{ toasts: Toast[] }>(() => ({ toasts: [] }));

/** How long a toast stays on the screen at `pathname`. */
export function toastDurationFor(pathname: string): number {
  return ACCOUNT_SCREENS.some((p) => pathname === p || pathname.startsWith(`${p}/`)) ? ACCOUNT_TOAST_MS : TOAST_MS;
}

export function showToast(kind: ToastKind, lines: string | string[], opts: { durationMs?: number } = {}): number {
  const id = nextId++;
  const toast: Toast = { id, kind, lines: Array.isArray(lines) ? lines : [lines], durationMs: opts.durationMs ?? toastDurationFor(window.location.pathname) };
  useToasts.setState((s) => ({ toasts: [...s.toasts, toast] }));
  return id;
}

export function dismissToast(id: number): void {
  useToasts.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

export const toast = {
  error: (lines: string | string[], opts?: { durationMs?: number }) => showToast('error', lines, opts),
  success: (lines: string | string[], opts?: { durationMs?: number }) => showToast('success', lines, opts),
  info: (lines: string | string[], opts?: { durationMs?: number }) => showToast('info', lines, opts),
};
