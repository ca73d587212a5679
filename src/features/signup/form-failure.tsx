import { FORM_FAILED_MESSAGE, errorLines } from '../../api/errors.ts';

/** 'Oops! Something went wrong while submitting the form.' with the message and RELOAD PAGE. */
export function FormFailure({ error }: { error: unknown }) {
  return (
    <div className="form-error" role="alert">
      <p>{FORM_FAILED_MESSAGE}</p>
      {errorLines(error).map((line, i) => (
        <p key={i}>{line}</p>
      ))}
      <p>
        <a href={window.location.href}>RELOAD PAGE</a>
      </p>
    </div>
  );
}
