/**
 * Everything the bench starts (server, browsers, temp data) registers how to stop it here; the
 * bench stops it all at the end, on failure and on Ctrl-C too (last started, first stopped),
 * one clean-up at a time however many ask for it.
 */
const tasks: (() => Promise<void> | void)[] = [];
let running: Promise<void> | null = null;
let stopping = false;

/** True once the clean-up began: nothing new may be started then (it would be left running). */
export const isStopping = () => stopping;

/** Registers a stop; the returned function unregisters it (once the thing was stopped normally). */
export function onCleanup(task: () => Promise<void> | void): () => void {
  tasks.push(task);
  return () => {
    const at = tasks.indexOf(task);
    if (at >= 0) tasks.splice(at, 1);
  };
}

export function cleanUp(): Promise<void> {
  stopping = true;
  running ??= (async () => {
    while (tasks.length) {
      try {
        await tasks.pop()?.();
      } catch (err) {
        console.error('clean-up:', err instanceof Error ? err.message : err);
      }
    }
    running = null;
  })();
  return running;
}
