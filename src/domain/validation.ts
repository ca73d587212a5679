/** Field rules of the specs' forms (accounts.md §5), shared by screens and tests. */

/** 'Email must look like {email}': something@something.something, no spaces. */
export const looksLikeEmail = (email: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

/** Sign-up and email change ask for 8 characters; the server enforces 8 everywhere. */
export const MIN_PASSWORD = 8;

export const passwordsOk = (password: string, confirmation: string): boolean => password.length >= MIN_PASSWORD && password === confirmation;

/** Referral codes are checked with the server from 3 characters on. */
export const REFERRAL_CHECK_FROM = 3;

/** A first check on the device; the server checks the content itself. */
export const isPdfFile = (file: { name: string; type: string }): boolean => file.type === 'application/pdf' || /\.pdf$/i.test(file.name);

export const CERTIFICATE_NOT_PDF = 'The blanket certificate of resale must be a PDF file.';
