// The bytes of a batch's `insert_file` changes, resolved before the write transaction opens (a fetch
// must never hold a transaction): decoded from base64 or fetched through the outbound guard, size-capped,
// hashed, and measured when they are an image.
import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import { HttpError, invalidField } from '../errors.js';
import { fetchGuarded, OutboundError } from '../outbound.js';
import type { ContentChange, PreparedFile } from './apply-changes.js';
import { readImageInfo } from './image-info.js';

type FileLimits = Pick<Config, 'maxFileBytes' | 'outbound'>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
/** Bytes one batch may bring in all its files together, in multiples of the per-file cap. */
const FILES_PER_BATCH_IN_BYTES = 5;

const tooLarge = (path: string, max: number) => new HttpError(413, `${path}: files are limited to ${max} bytes`);

function decodeBase64(text: string, path: string, maxBytes: number): Buffer {
  if (text.length % 4 === 1 || !BASE64.test(text)) throw invalidField(path, 'must be base64 (standard alphabet)');
  if (Math.floor((text.length * 3) / 4) - (text.match(/=+$/)?.[0].length ?? 0) > maxBytes) throw tooLarge(path, maxBytes);
  return Buffer.from(text, 'base64');
}

async function fetchFile(url: string, path: string, limits: FileLimits): Promise<{ bytes: Buffer; contentType?: string }> {
  try {
    const response = await fetchGuarded(url, { ...limits.outbound, maxBytes: Math.min(limits.maxFileBytes, limits.outbound.maxBytes) });
    const header = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    return { bytes: response.body, ...(header && MEDIA_TYPE.test(header) ? { contentType: header } : {}) };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.code === 'TOO_LARGE') throw tooLarge(path, Math.min(limits.maxFileBytes, limits.outbound.maxBytes));
    throw invalidField(path, `could not be fetched: ${error.message}`);
  }
}

/** Prepared files by change index; 400 for unusable input, 413 for files over the cap. */
export async function prepareFiles(changes: ContentChange[], limits: FileLimits): Promise<Map<number, PreparedFile>> {
  const prepared = new Map<number, PreparedFile>();
  let total = 0;
  for (const [index, change] of changes.entries()) {
    if (change.type !== 'insert_file') continue;
    const path = `/body/changes/${index}`;
    if ((change.base64 === undefined) === (change.url === undefined)) throw invalidField(path, 'must have exactly one of base64 and url');
    const source =
      change.base64 !== undefined
        ? { bytes: decodeBase64(change.base64, `${path}/base64`, limits.maxFileBytes), contentType: undefined }
        : await fetchFile(change.url!, `${path}/url`, limits);
    total += source.bytes.length;
    if (total > FILES_PER_BATCH_IN_BYTES * limits.maxFileBytes) {
      throw new HttpError(413, `${path}: the files of one batch are limited to ${FILES_PER_BATCH_IN_BYTES * limits.maxFileBytes} bytes in all`);
    }
    const image = readImageInfo(source.bytes);
    prepared.set(index, {
      bytes: source.bytes,
      sha256: createHash('sha256').update(source.bytes).digest('hex'),
      size: source.bytes.length,
      contentType: change.contentType ?? source.contentType ?? image?.contentType ?? 'application/octet-stream',
      ...(image ? { dimensions: { width: image.width, height: image.height } } : {}),
    });
  }
  return prepared;
}
