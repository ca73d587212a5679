/**
 * The files of a drop: loose files, and the photos inside dropped folders (a photographer drops
 * the shoot's folder, not 500 files). Folders are read through the File and Directory Entries
 * API, which every current browser offers for drops.
 */
type Entry = FileSystemEntry;

const isFile = (e: Entry): e is FileSystemFileEntry => e.isFile;
const isDirectory = (e: Entry): e is FileSystemDirectoryEntry => e.isDirectory;

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** A directory reader answers in batches (Chromium: 100 at a time) until an empty one. */
async function childrenOf(dir: FileSystemDirectoryEntry): Promise<Entry[]> {
  const reader = dir.createReader();
  const all: Entry[] = [];
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

async function walk(entry: Entry, into: File[]): Promise<void> {
  if (isFile(entry)) {
    // Hidden files (.DS_Store, ._IMG_0001.jpg from macOS) are never photos.
    if (!entry.name.startsWith('.')) into.push(await fileOf(entry));
  } else if (isDirectory(entry)) {
    for (const child of await childrenOf(entry)) await walk(child, into);
  }
}

export async function droppedFiles(data: DataTransfer): Promise<File[]> {
  // Entries must be taken synchronously, before the drop event returns.
  const entries = [...data.items].flatMap((item) => {
    const entry = item.kind === 'file' ? item.webkitGetAsEntry() : null;
    return entry ? [entry] : [];
  });
  if (!entries.length) return [...data.files];
  const files: File[] = [];
  for (const entry of entries) await walk(entry, files);
  return files;
}
