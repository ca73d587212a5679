import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a write of the embedded store leaves when its process is killed half-way: an upload's
 * temporary file (`<object>.upload-<pid>-<time>`) and a streamed object's (`<object>.writing-<hex>`,
 * a zip or a report). Each becomes its object only by a rename at the end, so one still lying
 * about belongs to no object; a live write's own file is kept.
 */
const LEFTOVER = /\.(upload-\d+-\d+|writing-[0-9a-f]+)$/;

export const isWriteLeftover = (name: string) => LEFTOVER.test(name);

/** Removes every write leftover under `root` that `live` does not name; answers how many. */
export async function removeWriteLeftovers(root: string, live: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (isWriteLeftover(entry.name) && !live.has(path)) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
  };
  await walk(root);
  return removed;
}
