/** The lab's password rule (docs/lab-rules.md): the server checks it, the screens say it. */
export const MIN_PASSWORD_LENGTH = 8;

export const PASSWORD_RULE = `Password fields must match and be at least ${MIN_PASSWORD_LENGTH} characters long.`;
