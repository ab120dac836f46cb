// Turns an OpenAPI spec's source into a version — or into the errors that keep it from being one — with
// Redocly's engine (@redocly/openapi-core, which also lints this project's own spec):
// 1. the entry document: fetched through the outbound guard (a `url` source) or taken as given (`text`);
// 2. parsed (YAML, JSON being YAML) and checked to be OpenAPI 3.0, 3.1 or Swagger 2.0;
// 3. linted for structure and unresolved `$ref`s: the engine follows every reference through
//    GuardedResolver (below), which fetches http(s) files through the outbound guard with shared caps
//    (number of files, bytes, one deadline) and never reads the server's disk;
// 4. the files recorded as parsed (the version's `filesystem`), then bundled into one document.
// A failure keeps its first errors with their locations, under one code: FETCH_TIMEOUT, FETCH_ERROR or
// PARSE_ERROR (docs/decisions.md, "Organization settings"). Nothing here touches the database. It runs
// in the parse pool (the job hands it over: openapi-specs.service.ts), under the pool's deadline and
// heap limit; and what it walks is bounded in bytes, so YAML aliases cannot make a small file expand
// past what a file of the allowed size could hold (an 11 KB alias bomb once held the event loop 170 s
// and 2.5 GB).
import { createHash } from 'node:crypto';
import {
  BaseResolver,
  bundleDocument,
  createConfig,
  lintDocument,
  ResolveError,
  Source,
  YamlParseError,
  type Document,
  type NormalizedProblem,
  type StyleguideConfig,
} from '@redocly/openapi-core';
import type { OpenAPISpecErrorCode } from '../../db/schema.js';
import { isStorableText } from '../../db/storable-text.js';
import { fetchGuarded, OutboundError, type OutboundPolicy } from '../../outbound.js';

export type OpenAPISource = { url: string } | { text: string };
export type ProcessError = { message: string; location: string };
/** The files of a version: each file's parsed content by address, and which one is the entry. */
export type OpenAPIFilesystem = { entrypoint: string; files: Record<string, unknown> };

/** A success carries the version as stored: the filesystem and the bundled document as JSON text. */
export type ProcessOutcome =
  | { ok: true; filesystem: string; bundle: string; contentHash: string }
  | { ok: false; code: OpenAPISpecErrorCode; errors: ProcessError[] };

export type ProcessLimits = {
  /** The guard's policy; `maxBytes` caps the spec's files together, `timeoutMs` each fetch. */
  outbound: OutboundPolicy;
  /** Files per spec, the entry included. */
  maxFiles: number;
  /** One deadline for every fetch of a processing. */
  timeoutMs: number;
};

/** Errors kept on a failed spec. */
export const MAX_ERRORS = 20;
/** Expanded size and nesting of the parsed files together (YAML aliases can multiply a small file). */
const MAX_NODES = 2_000_000;
const MAX_DEPTH = 200;
/**
 * The parsed files together, as JSON, are at most this many times the bytes the files may hold: a
 * spec without aliases is about its own size as JSON, one whose aliases expand it further is refused.
 * Everything after the parse (lint, bundle, storing) is linear in this.
 */
export const MAX_EXPANSION = 2;

const HTTP_URL = /^https?:\/\//i;

class ProcessFailure extends Error {
  constructor(
    readonly code: OpenAPISpecErrorCode,
    message: string,
    readonly location: string,
  ) {
    super(message);
  }
}

/** The shared caps of one processing, across every file it loads. */
class Budget {
  private files = 0;
  private nodes = 0;
  private bytes = 0;
  /** The parsed values' size as JSON text, counted as they are walked (aliases counted at each use). */
  private expanded = 0;
  private readonly deadline: number;

  constructor(readonly limits: ProcessLimits) {
    this.deadline = Date.now() + limits.timeoutMs;
  }

  /** Counts one more file; undefined when allowed, else why not. */
  takeFile(): string | undefined {
    this.files += 1;
    return this.files > this.limits.maxFiles ? `more than ${this.limits.maxFiles} files (the entry and the files it references)` : undefined;
  }

  takeBytes(count: number): string | undefined {
    this.bytes += count;
    return this.bytes > this.limits.outbound.maxBytes ? `the spec's files together are larger than ${this.limits.outbound.maxBytes} bytes` : undefined;
  }

  /** The policy for the next fetch: what is left of the deadline and of the byte budget. */
  policy(): OutboundPolicy | undefined {
    const timeLeft = this.deadline - Date.now();
    if (timeLeft <= 0) return undefined;
    return { ...this.limits.outbound, timeoutMs: Math.min(this.limits.outbound.timeoutMs, timeLeft), maxBytes: Math.max(1, this.limits.outbound.maxBytes - this.bytes) };
  }

  /**
   * Why a parsed file cannot be kept, or undefined: only JSON values (no binary, no non-finite number,
   * no U+0000 or lone surrogate, which PostgreSQL's JSON types refuse), nested at most MAX_DEPTH deep,
   * MAX_NODES in all and at most MAX_EXPANSION times the files' byte limit as JSON once YAML aliases are
   * expanded (a walk that stops at the caps, so a cycle or an alias bomb ends it: its cost is linear in
   * the caps, and so is everything done with the files afterwards).
   */
  shapeProblem(value: unknown): string | undefined {
    const maxExpanded = MAX_EXPANSION * this.limits.outbound.maxBytes;
    const tooLarge = `the parsed files together expand to more than ${maxExpanded} bytes as JSON (YAML aliases included)`;
    const grows = (bytes: number) => (this.expanded += bytes) > maxExpanded;
    const stack: Array<[unknown, number]> = [[value, 0]];
    while (stack.length) {
      const [node, depth] = stack.pop()!;
      if (++this.nodes > MAX_NODES) return `the parsed files together hold more than ${MAX_NODES} values (YAML aliases included)`;
      if (depth > MAX_DEPTH) return `values are nested more than ${MAX_DEPTH} levels deep`;
      if (node === null || typeof node === 'boolean') {
        if (grows(5)) return tooLarge;
        continue;
      }
      if (typeof node === 'number') {
        if (!Number.isFinite(node)) return 'a number is not finite (.inf or .nan)';
        if (grows(String(node).length + 1)) return tooLarge;
        continue;
      }
      if (typeof node === 'string') {
        if (grows(node.length + 3)) return tooLarge;
        if (!isStorableText(node)) return 'a string holds U+0000 or a lone surrogate (not storable Unicode text)';
        continue;
      }
      if (Array.isArray(node)) {
        if (grows(2)) return tooLarge;
        for (const item of node) stack.push([item, depth + 1]);
        continue;
      }
      if (typeof node === 'object' && Object.getPrototypeOf(node) === Object.prototype) {
        if (grows(2)) return tooLarge;
        for (const [key, item] of Object.entries(node)) {
          if (!isStorableText(key)) return 'a key holds U+0000 or a lone surrogate (not storable Unicode text)';
          if (grows(key.length + 4)) return tooLarge;
          stack.push([item, depth + 1]);
        }
        continue;
      }
      return `a value of YAML type ${Object.prototype.toString.call(node).slice(8, -1)} has no JSON equivalent`;
    }
    return undefined;
  }
}

const fetchFailureCode = (error: OutboundError): OpenAPISpecErrorCode => (error.code === 'TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR');

/** Fetches one file under the budget; a ProcessFailure says why it could not be. */
async function fetchFile(url: string, budget: Budget): Promise<Source> {
  const fileProblem = budget.takeFile();
  if (fileProblem) throw new ProcessFailure('FETCH_ERROR', fileProblem, url);
  const policy = budget.policy();
  if (!policy) throw new ProcessFailure('FETCH_TIMEOUT', `no time left to fetch ${url} (the processing takes at most ${budget.limits.timeoutMs} ms)`, url);
  let response;
  try {
    response = await fetchGuarded(url, policy);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const message = error.code === 'TOO_LARGE' ? `the spec's files together are larger than ${budget.limits.outbound.maxBytes} bytes` : error.message;
    throw new ProcessFailure(fetchFailureCode(error), `${url}: ${message}`, url);
  }
  const bytesProblem = budget.takeBytes(response.body.length);
  if (bytesProblem) throw new ProcessFailure('FETCH_ERROR', bytesProblem, url);
  const contentType = response.headers['content-type'];
  return new Source(response.url, decode(response.body), typeof contentType === 'string' ? contentType : undefined);
}

function decode(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/**
 * The engine's file access, made safe: references resolve only to http(s) addresses (absolute, or
 * relative to an http(s) file), fetched through the outbound guard under the processing's budget.
 * Anything else — `file:` addresses, absolute or relative paths in a spec given as text — is refused
 * without a look at the disk. Each failure is recorded with its code; the engine reports it as an
 * unresolved `$ref` at the place of the reference.
 */
class GuardedResolver extends BaseResolver {
  readonly failures: ProcessFailure[] = [];

  constructor(private readonly budget: Budget) {
    super();
  }

  override resolveExternalRef(base: string | null, ref: string): string {
    if (HTTP_URL.test(ref)) return ref;
    if (base && HTTP_URL.test(base)) {
      try {
        return new URL(ref, base).href;
      } catch {
        return ref;
      }
    }
    return ref;
  }

  override async loadExternalRef(absoluteRef: string): Promise<Source> {
    try {
      if (!HTTP_URL.test(absoluteRef)) {
        throw new ProcessFailure(
          'PARSE_ERROR',
          `"${absoluteRef}" is not an http or https address: references to local files are never read, and a spec given as text can reference other files only by absolute address`,
          absoluteRef,
        );
      }
      return await fetchFile(absoluteRef, this.budget);
    } catch (error) {
      if (error instanceof ProcessFailure) this.failures.push(error);
      throw new ResolveError(error as Error);
    }
  }

  override parseDocument(source: Source, isRoot = false): Document {
    const document = super.parseDocument(source, isRoot);
    const problem = this.budget.shapeProblem(document.parsed);
    if (problem) {
      const failure = new ProcessFailure('PARSE_ERROR', `${source.absoluteRef}: ${problem}`, source.absoluteRef);
      this.failures.push(failure);
      throw failure;
    }
    return document;
  }

  /** The files loaded without error, in the order they were first referenced. */
  async loadedFiles(): Promise<Document[]> {
    const documents: Document[] = [];
    for (const pending of this.cache.values()) {
      const result = await pending.catch(() => undefined);
      if (result && !(result instanceof Error)) documents.push(result);
    }
    return documents;
  }
}

let styleguide: Promise<StyleguideConfig> | undefined;

/**
 * The lint rules: the document's structure against its specification, and references that resolve.
 * Built once (the engine looks for an ignore file and plugins in the working directory, which the
 * operator controls: nothing of a user's reaches it).
 */
function lintConfig(): Promise<StyleguideConfig> {
  styleguide ??= createConfig({ rules: { struct: 'error', 'no-unresolved-refs': 'error' } }).then((config) => config.styleguide);
  return styleguide;
}

/** The entry's name for a spec given as text: its address for references and error locations. */
export function textEntryName(text: string): string {
  return text.trimStart().startsWith('{') ? 'openapi.json' : 'openapi.yaml';
}

const SUPPORTED = 'an OpenAPI 3.0, 3.1 or Swagger 2.0 document';

function checkSpecification(parsed: unknown, address: string): void {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ProcessFailure('PARSE_ERROR', `the document is not ${SUPPORTED}: it is not an object`, `${address}#/`);
  const { openapi, swagger } = parsed as { openapi?: unknown; swagger?: unknown };
  if (openapi !== undefined) {
    if (typeof openapi === 'string' && /^3\.[01]\.\d+$/.test(openapi)) return;
    throw new ProcessFailure('PARSE_ERROR', `OpenAPI ${JSON.stringify(openapi)} is not supported: the document must be ${SUPPORTED}`, `${address}#/openapi`);
  }
  if (swagger !== undefined) {
    if (swagger === '2.0') return;
    throw new ProcessFailure('PARSE_ERROR', `Swagger ${JSON.stringify(swagger)} is not supported: the document must be ${SUPPORTED}`, `${address}#/swagger`);
  }
  throw new ProcessFailure('PARSE_ERROR', `the document is not ${SUPPORTED}: it has no \`openapi\` or \`swagger\` version`, `${address}#/`);
}

function locationOf(problem: NormalizedProblem): string {
  const location = problem.location[0];
  if (!location) return '';
  if (location.pointer !== undefined) return `${location.source.absoluteRef}${location.pointer}`;
  return `${location.source.absoluteRef}:${location.start.line}:${location.start.col}`;
}

/** The code of a failed run: a fetch that failed is the cause of what follows from it. */
function failureCode(failures: ProcessFailure[]): OpenAPISpecErrorCode {
  if (failures.some((failure) => failure.code === 'FETCH_TIMEOUT')) return 'FETCH_TIMEOUT';
  if (failures.some((failure) => failure.code === 'FETCH_ERROR')) return 'FETCH_ERROR';
  return 'PARSE_ERROR';
}

function failed(code: OpenAPISpecErrorCode, errors: ProcessError[]): ProcessOutcome {
  return { ok: false, code, errors: errors.slice(0, MAX_ERRORS) };
}

/** Processes `source` under `limits`. Never throws for what the source holds: failures are outcomes. */
export async function processOpenAPISource(source: OpenAPISource, limits: ProcessLimits): Promise<ProcessOutcome> {
  const budget = new Budget(limits);
  const resolver = new GuardedResolver(budget);
  let entry: Document;
  try {
    let entrySource: Source;
    if ('url' in source) {
      entrySource = await fetchFile(source.url, budget);
    } else {
      const bytesProblem = budget.takeFile() ?? budget.takeBytes(Buffer.byteLength(source.text));
      if (bytesProblem) throw new ProcessFailure('FETCH_ERROR', bytesProblem, textEntryName(source.text));
      entrySource = new Source(textEntryName(source.text), source.text.replace(/^\uFEFF/, ''));
    }
    try {
      entry = resolver.parseDocument(entrySource, true);
    } catch (error) {
      if (error instanceof YamlParseError) {
        throw new ProcessFailure('PARSE_ERROR', `not JSON or YAML: ${error.message}`, `${entrySource.absoluteRef}:${error.line}:${error.col}`);
      }
      throw error;
    }
    checkSpecification(entry.parsed, entrySource.absoluteRef);
  } catch (error) {
    if (error instanceof ProcessFailure) return failed(error.code, [{ message: error.message, location: error.location }]);
    throw error;
  }

  const config = await lintConfig();
  let problems: NormalizedProblem[];
  try {
    problems = (await lintDocument({ document: entry, config, externalRefResolver: resolver })).filter((problem) => problem.severity === 'error');
  } catch (error) {
    // The engine gave up on the document (it should report problems rather than throw).
    return failed(failureCode(resolver.failures), [{ message: `the document could not be validated: ${(error as Error).message}`, location: `${entry.source.absoluteRef}#/` }]);
  }
  if (problems.length) {
    return failed(
      failureCode(resolver.failures),
      problems.map((problem) => ({ message: problem.message, location: locationOf(problem) })),
    );
  }

  // Recorded before bundling, which rewrites references in the documents it walks.
  const files: Record<string, unknown> = { [entry.source.absoluteRef]: entry.parsed };
  for (const document of await resolver.loadedFiles()) files[document.source.absoluteRef] = document.parsed;
  const filesystem: OpenAPIFilesystem = { entrypoint: entry.source.absoluteRef, files };
  const filesystemJson = JSON.stringify(filesystem);
  const contentHash = createHash('sha256').update(filesystemJson).digest('hex');

  let bundled: Document;
  try {
    const result = await bundleDocument({ document: entry, config, externalRefResolver: resolver, dereference: false });
    const errors = result.problems.filter((problem) => problem.severity === 'error');
    if (errors.length) return failed('PARSE_ERROR', errors.map((problem) => ({ message: problem.message, location: locationOf(problem) })));
    bundled = result.bundle;
  } catch (error) {
    return failed('PARSE_ERROR', [{ message: `the document could not be bundled: ${(error as Error).message}`, location: `${entry.source.absoluteRef}#/` }]);
  }
  return { ok: true, filesystem: filesystemJson, bundle: JSON.stringify(bundled.parsed), contentHash };
}
