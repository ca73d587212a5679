import { describe, expect, it } from 'vitest';
import { ApiError, NO_RESPONSE_MESSAGE, errorLines, errorText, isErrorBody, truncateWords } from '../../src/api/errors.ts';

describe('the error catalogue', () => {
  it('an error with a body: code, class and message lines', () => {
    const err = ApiError.fromBody(
      { error: { status: 422, class_name: 'ValidationError', developer_message: 'dev', user_message: { message: 'Zip must be 5 digits.' }, more_info: ['zip'] } },
      422,
    );
    expect(errorLines(err)).toEqual(['ERROR CODE: 422', 'ERROR CLASS: ValidationError', 'ERROR MESSAGE: Zip must be 5 digits.']);
    expect(err.moreInfo).toEqual(['zip']);
  });

  it('falls back to the developer message when there is no user message', () => {
    const err = ApiError.fromBody({ error: { status: 500, class_name: 'X', developer_message: 'dev text' } }, 500);
    expect(err.message).toBe('dev text');
  });

  it('a response without an error body keeps only the HTTP status', () => {
    expect(errorLines(new ApiError('http', 'HTTP 502', { status: 502 }))).toEqual(['ERROR CODE: 502']);
  });

  it('no response at all', () => {
    expect(errorLines(new ApiError('network', 'Failed to fetch'))).toEqual([NO_RESPONSE_MESSAGE]);
    expect(NO_RESPONSE_MESSAGE).toBe('Something went wrong:Please check your internet connection and try again.');
  });

  it('other failures are cut to their first 20 words', () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    expect(errorLines(new Error(words))).toEqual([`Something went wrong: ${truncateWords(words)}`]);
    expect(truncateWords(words).split(' ')).toHaveLength(20);
    expect(truncateWords('short message')).toBe('short message');
  });

  it('errorText joins the lines for ERROR LOADING', () => {
    expect(errorText(new ApiError('http', '', { status: 404 }))).toBe('ERROR CODE: 404');
  });

  it('recognises the error body shape', () => {
    expect(isErrorBody({ error: { status: 400, class_name: 'BadRequest' } })).toBe(true);
    expect(isErrorBody({ error: 'nope' })).toBe(false);
    expect(isErrorBody(null)).toBe(false);
  });
});
