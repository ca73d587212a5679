/**
 * The one error shape of the wire contract (docs/api.md §2). Every 4xx/5xx the API sends is built
 * here, so the client's error catalogue can rely on it.
 */
export interface ErrorBody {
  error: {
    status: number;
    class_name: string;
    developer_message: string;
    user_message: { message: string };
    more_info: string[];
  };
}

export class HttpError extends Error {
  readonly status: number;
  readonly className: string;
  readonly developerMessage: string;
  readonly moreInfo: string[];

  constructor(
    status: number,
    className: string,
    userMessage: string,
    opts: { developerMessage?: string; moreInfo?: string[] } = {},
  ) {
    super(userMessage);
    this.status = status;
    this.className = className;
    this.developerMessage = opts.developerMessage ?? userMessage;
    this.moreInfo = opts.moreInfo ?? [];
  }

  toBody(): ErrorBody {
    return errorBody(this.status, this.className, this.message, this.developerMessage, this.moreInfo);
  }
}

export function errorBody(
  status: number,
  className: string,
  userMessage: string,
  developerMessage = userMessage,
  moreInfo: string[] = [],
): ErrorBody {
  return {
    error: { status, class_name: className, developer_message: developerMessage, user_message: { message: userMessage }, more_info: moreInfo },
  };
}

export const badRequest = (message: string, moreInfo?: string[]) =>
  new HttpError(400, 'BadRequest', message, moreInfo ? { moreInfo } : {});
export const unauthorized = (message = 'You need to sign in to do that.') => new HttpError(401, 'Unauthorized', message);
export const forbidden = (message = 'Only lab admins can do that.') => new HttpError(403, 'Forbidden', message);
export const notFound = (message = 'Not found.') => new HttpError(404, 'NotFound', message);
export const conflict = (message: string) => new HttpError(409, 'Conflict', message);
export const validationError = (message: string, moreInfo?: string[]) =>
  new HttpError(422, 'ValidationError', message, moreInfo ? { moreInfo } : {});
export const tooManyRequests = (message: string) => new HttpError(429, 'TooManyRequests', message);

// The error body's schema is part of the contract, which the page and the API document share.
export { errorAnswers, errorBodySchema } from '../../src/contract/error-body.ts';
