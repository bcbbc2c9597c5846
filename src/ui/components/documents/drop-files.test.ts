import { describe, expect, it } from 'vitest';
import { filesFromDrop } from './drop-files';

interface FakeEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
  file?: (ok: (f: File) => void) => void;
  createReader?: () => { readEntries(ok: (e: FakeEntry[]) => void): void };
}

function fileEntry(path: string, text = path): FakeEntry {
  const name = path.split('/').pop()!;
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath: `/${path}`,
    file: (ok) => ok(new File([text], name)),
  };
}

/** A folder whose reader hands out its children in batches of two, like Chromium's (≤ 100). */
function folder(path: string, children: FakeEntry[]): FakeEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: path.split('/').pop()!,
    fullPath: `/${path}`,
    createReader: () => {
      let at = 0;
      return {
        readEntries(ok) {
          ok(children.slice(at, at + 2));
          at += 2;
        },
      };
    },
  };
}

function transfer(entries: (FakeEntry | null)[], files: File[] = []): DataTransfer {
  return {
    items: entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e })),
    files,
  } as unknown as DataTransfer;
}

describe('filesFromDrop', () => {
  it('U130: a dropped folder is read recursively, in name order, all batches, hidden files skipped', async () => {
    const notes = folder('notes', [
      fileEntry('notes/b.md'),
      fileEntry('notes/.DS_Store'),
      fileEntry('notes/a.txt'),
      folder('notes/old', [fileEntry('notes/old/c.txt')]),
      fileEntry('notes/d.pdf'),
    ]);
    const files = await filesFromDrop(transfer([notes, fileEntry('loose.html')]));
    expect(files.map((f) => f.name)).toEqual([
      'notes/a.txt',
      'notes/b.md',
      'notes/d.pdf',
      'notes/old/c.txt',
      'loose.html',
    ]);
    expect(await files[0]!.blob.text()).toBe('notes/a.txt');
  });

  it('U130: without entry support the dropped files themselves are imported', async () => {
    const files = await filesFromDrop(transfer([null], [new File(['x'], 'one.txt')]));
    expect(files.map((f) => f.name)).toEqual(['one.txt']);
  });
});
