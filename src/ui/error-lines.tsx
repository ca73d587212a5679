/** A failure's lines (from the error catalogue) as one alert, with an optional first line. */
export function ErrorLines({ lines, title }: { lines: string[]; title?: string }) {
  if (!lines.length) return null;
  return (
    <div className="form-error" role="alert">
      {title ? <p>{title}</p> : null}
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  );
}
