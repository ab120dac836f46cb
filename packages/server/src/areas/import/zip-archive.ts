// A zip archive read safely (yauzl, from memory: the archive was fetched or sent within the import's
// byte limit). Refused whole, before anything is read: more entries than allowed, more bytes once
// expanded than allowed, an entry whose compression ratio only a zip bomb has, or a name leaving the
// archive (`../`, an absolute path: yauzl refuses them). Symbolic links and encrypted entries are left
// out. Reading an entry counts its expanded bytes against the import's budget, and yauzl checks that
// the stream holds exactly the size the archive declares, so a lying header cannot expand further.
import yauzl from 'yauzl';
import { unprocessable } from '../../errors.js';
import type { ImportBudget } from './import-budget.js';

/** Above this ratio of expanded to compressed size (for entries over 1 MiB), an entry is a zip bomb. */
export const MAX_COMPRESSION_RATIO = 100;
const RATIO_CHECKED_ABOVE = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export type ArchiveLimits = { maxEntries: number; maxExpandedBytes: number };

export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    /** Files by their path in the archive. */
    readonly entries: ReadonlyMap<string, yauzl.Entry>,
  ) {}

  static async open(bytes: Buffer, limits: ArchiveLimits, budget: ImportBudget): Promise<ZipArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (error, file) => (error ? reject(error) : resolve(file))),
      );
    } catch (error) {
      throw unprocessable(`The archive is not a readable zip file: ${(error as Error).message}`);
    }
    if (zip.entryCount > limits.maxEntries) {
      zip.close();
      throw unprocessable(`The archive has ${zip.entryCount} entries: at most ${limits.maxEntries} can be imported`);
    }
    const entries = new Map<string, yauzl.Entry>();
    let expanded = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on('error', reject);
        zip.on('end', resolve);
        zip.on('entry', (entry: yauzl.Entry) => {
          const name = entry.fileName;
          const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
          if (name.endsWith('/')) {
            // A folder: nothing to read.
          } else if (mode === S_IFLNK) {
            budget.skip(name, 'a symbolic link: not followed');
          } else if (entry.isEncrypted()) {
            budget.skip(name, 'encrypted');
          } else {
            expanded += entry.uncompressedSize;
            if (expanded > limits.maxExpandedBytes) return reject(unprocessable(`The archive expands to more than ${limits.maxExpandedBytes} bytes: refused`));
            if (entry.uncompressedSize > RATIO_CHECKED_ABOVE && entry.uncompressedSize > MAX_COMPRESSION_RATIO * Math.max(1, entry.compressedSize)) {
              return reject(unprocessable(`The archive entry "${name}" expands more than ${MAX_COMPRESSION_RATIO} times: refused as a zip bomb`));
            }
            entries.set(name, entry);
          }
          zip.readEntry();
        });
        zip.readEntry();
      });
    } catch (error) {
      zip.close();
      if ((error as { status?: number }).status) throw error;
      const message = (error as Error).message;
      if (/absolute path|invalid relative path|invalid characters/.test(message)) throw unprocessable(`The archive has an entry outside it (${message}): refused`);
      throw unprocessable(`The archive is not a readable zip file: ${message}`);
    }
    return new ZipArchive(zip, entries);
  }

  /** An entry's bytes, counted against the budget; undefined when they do not fit in what is left. */
  async read(path: string, budget: ImportBudget): Promise<Buffer | undefined> {
    const entry = this.entries.get(path);
    if (!entry || !budget.takeBytes(entry.uncompressedSize)) return undefined;
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      const parts: Buffer[] = [];
      for await (const chunk of stream) parts.push(chunk as Buffer);
      return Buffer.concat(parts);
    } catch (error) {
      throw unprocessable(`The archive entry "${path}" could not be read: ${(error as Error).message}`);
    }
  }

  close(): void {
    this.zip.close();
  }
}
