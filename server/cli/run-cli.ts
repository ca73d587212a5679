import { ConfigError } from '../config.ts';

/**
 * Runs a command-line tool's main and sets its exit code: a bad setting prints its one line, any
 * other failure its error. exitCode, not exit(): exit() would cut long output short on a pipe.
 */
export function runCli(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exitCode = 1;
    },
  );
}
