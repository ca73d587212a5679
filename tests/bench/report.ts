/** The bench's one summary table: every figure with its target and PASS/MISS (or ERROR). */
export type Verdict = 'PASS' | 'MISS' | 'ERROR';

export interface Row {
  area: string;
  figure: string;
  value: string;
  target: string;
  result: Verdict;
}

export const verdict = (pass: boolean): Verdict => (pass ? 'PASS' : 'MISS');

/** What went wrong, in words, whatever was thrown (Lighthouse throws plain objects too). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null) {
    const { code, message, friendlyMessage } = err as { code?: unknown; message?: unknown; friendlyMessage?: unknown };
    const text = [code, friendlyMessage ?? message].filter((x) => typeof x === 'string').join(' ');
    return text || JSON.stringify(err);
  }
  return String(err);
}

export const errorRow = (area: string, figure: string, target: string, err: unknown): Row => ({
  area,
  figure,
  value: `bench error: ${describeError(err).split('\n')[0] ?? ''}`,
  target,
  result: 'ERROR',
});

export function formatTable(rows: Row[]): string {
  const header: Row = { area: 'area', figure: 'figure', value: 'measured', target: 'target', result: 'PASS' };
  const cells = [header, ...rows].map((r, i) => [r.area, r.figure, r.value, r.target, i === 0 ? 'result' : r.result]);
  const widths = [0, 1, 2, 3, 4].map((c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const [head, ...body] = cells;
  return [line(head ?? []), rule, ...body.map(line)].join('\n');
}

export const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
