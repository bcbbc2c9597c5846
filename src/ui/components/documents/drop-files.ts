import type { ImportFile } from '../../state/documents.svelte';

/** Deepest folder level read from a drop: enough for notes folders, bounded for a stray `/`. */
const MAX_DEPTH = 8;

/** The part of `FileSystemEntry` a drop needs (typed here: the DOM lib's types vary by version). */
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
  file?: (ok: (file: File) => void, fail: (error: unknown) => void) => void;
  createReader?: () => {
    readEntries(ok: (entries: Entry[]) => void, fail: (error: unknown) => void): void;
  };
}

function fileOf(entry: Entry): Promise<File> {
  return new Promise((resolve, reject) => entry.file?.(resolve, reject));
}

async function readAll(entry: Entry): Promise<Entry[]> {
  const reader = entry.createReader?.();
  if (!reader) return [];
  const all: Entry[] = [];
  // readEntries returns at most ~100 entries per call; an empty batch means the end.
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: Entry, depth: number, out: ImportFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await fileOf(entry);
    out.push({ blob: file, name: entry.fullPath.replace(/^\//, '') || file.name });
    return;
  }
  if (!entry.isDirectory || depth >= MAX_DEPTH) return;
  const children = await readAll(entry);
  children.sort((a, b) => a.name.localeCompare(b.name));
  for (const child of children) await walk(child, depth + 1, out);
}

/**
 * The files of a drop, in order: each dropped file, and the files inside each dropped folder
 * (through `webkitGetAsEntry`, read recursively; hidden files are skipped). Without entry support
 * it falls back to `dataTransfer.files`, which holds the dropped files but not folders (U130).
 */
export async function filesFromDrop(transfer: DataTransfer): Promise<ImportFile[]> {
  const items = [...transfer.items].filter((i) => i.kind === 'file');
  // Entries must be taken synchronously, before the first await: the drop data expires after.
  const entries = items.map((i) =>
    typeof i.webkitGetAsEntry === 'function' ? (i.webkitGetAsEntry() as Entry | null) : null,
  );
  const files = [...transfer.files];
  if (entries.length === 0 || entries.some((e) => e === null)) {
    return files.map((f) => ({ blob: f, name: f.name }));
  }
  const out: ImportFile[] = [];
  for (const entry of entries) if (entry) await walk(entry, 0, out);
  return out.filter((f) => !(f.name.split('/').pop() ?? '').startsWith('.'));
}
