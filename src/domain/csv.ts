/**
 * CSV as spreadsheets read it (RFC 4180): quoted when needed, CRLF line ends. Text that a
 * spreadsheet would run as a formula (a name typed as =HYPERLINK(...)) is kept as text.
 */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  const cell = (v: string | number) => {
    const raw = String(v);
    const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(raw) && !/^-?\d+(\.\d+)?$/.test(raw) ? `'${raw}` : raw;
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
