// packages/sdk/src/generated/operations.ts: the SDK's named operations (`cw.spaces.get(…)`,
// `cw.changeRequests.comments.list(…)`), generated from the bundled spec by `pnpm codegen` and
// drift-checked by `pnpm codegen:check`.
//
// Every operation declares its SDK name in the contract as `x-sdk-name: <resource>[.<resource>…].<verb>`
// (docs/decisions.md, "SDK names declared in the contract"): the name is part of the contract, so
// `pnpm spec:diff` treats a changed one as breaking (tools/openapi/spec-compare.ts). Codegen refuses a
// missing or malformed name, two operations of one name, a name that is also a group (`spaces.comments`
// both a method and the group of `spaces.comments.list`), a verb outside SDK_VERBS, a reading verb on
// a write or a writing verb on a read, and a path parameter named like the `query`/`body`/`header` keys.
import type { OpenApiDocument } from './bundle.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
/** Keys of an operation's argument object besides its path parameters. */
const ARGUMENT_KEYS = new Set(['query', 'body', 'header']);
/** Properties of the SDK's workspace object besides the groups. */
const RESERVED_GROUPS = new Set(['client', 'withResponse']);

/**
 * The verbs a method name starts with, optionally followed by a qualifier (`getByPath`, `listSpaces`,
 * `rotateSecret`). Reading verbs are for GET operations only, and only GET operations use them.
 */
export const SDK_VERBS = {
  read: ['list', 'get', 'search', 'download', 'start'],
  write: [
    'create', 'update', 'delete', 'upsert', 'add', 'remove', 'set', 'apply', 'import', 'merge', 'publish',
    'unpublish', 'restore', 'move', 'transfer', 'duplicate', 'grant', 'revoke', 'join', 'ping', 'rotate',
    'redeliver', 'verify', 'consume',
  ],
} as const;

export const SDK_OPERATIONS_FILE = 'packages/sdk/src/generated/operations.ts';

type SpecOperation = { operationId?: string; tags?: string[]; summary?: string; description?: string; 'x-sdk-name'?: unknown };

/** One operation as the SDK names it. */
export type NamedOperation = {
  /** `['changeRequests', 'comments']`: the groups the method sits in, outermost first. */
  groups: string[];
  /** The method, e.g. `list`. */
  name: string;
  /** The whole SDK name, `changeRequests.comments.list`. */
  sdkName: string;
  method: (typeof METHODS)[number];
  path: string;
  operationId: string;
  summary?: string;
  description?: string;
};

/** A tag's name in camelCase, as the SDK names a group after it: "Change requests" → `changeRequests`. */
export function groupName(tag: string): string {
  const words = tag.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word.toLowerCase());
  return words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
}

const SEGMENT = /^[a-z][A-Za-z0-9]*$/;

/** What is wrong with an SDK name for an operation of `method`, or undefined when nothing is. */
export function sdkNameProblem(sdkName: string, method: string): string | undefined {
  const segments = sdkName.split('.');
  if (segments.length < 2 || !segments.every((segment) => SEGMENT.test(segment))) {
    return `\`${sdkName}\` is not <group>[.<group>…].<method> in camelCase`;
  }
  if (RESERVED_GROUPS.has(segments[0]!)) return `\`${segments[0]}\` is a property of the SDK's client, not a group`;
  const verb = /^[a-z]+/.exec(segments.at(-1)!)![0];
  const reading = (SDK_VERBS.read as readonly string[]).includes(verb);
  if (!reading && !(SDK_VERBS.write as readonly string[]).includes(verb)) {
    return `\`${sdkName}\` starts its method with "${verb}", which is not one of the SDK's verbs (tools/openapi/sdk-operations.ts, SDK_VERBS)`;
  }
  if (reading !== (method === 'get')) {
    return `\`${sdkName}\` uses ${reading ? 'a reading' : 'a writing'} verb for a ${method.toUpperCase()} operation`;
  }
  return undefined;
}

/** Every operation of the spec with its SDK name, in the order of the paths. */
export function namedOperations(spec: OpenApiDocument): NamedOperation[] {
  const problems: string[] = [];
  const operations: NamedOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths) as [string, Record<string, SpecOperation>][]) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const { operationId, summary, description } = operation;
      const sdkName = operation['x-sdk-name'];
      const where = `${method.toUpperCase()} ${path}`;
      if (!operationId) {
        problems.push(`${where} has no operationId`);
        continue;
      }
      if (typeof sdkName !== 'string') {
        problems.push(`${operationId} (${where}) has no x-sdk-name: declare its SDK name, e.g. \`spaces.get\``);
        continue;
      }
      const problem = sdkNameProblem(sdkName, method);
      if (problem) problems.push(`${operationId} (${where}): ${problem}`);
      for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) {
        if (ARGUMENT_KEYS.has(param!)) problems.push(`${operationId}: the path parameter {${param}} clashes with the SDK's \`${param}\` argument`);
      }
      const segments = sdkName.split('.');
      operations.push({ groups: segments.slice(0, -1), name: segments.at(-1)!, sdkName, method, path, operationId, summary, description });
    }
  }
  const seen = new Map<string, string>();
  const groups = new Set(operations.flatMap(({ groups }) => groups.map((_, i) => groups.slice(0, i + 1).join('.'))));
  for (const { sdkName, operationId } of operations) {
    const other = seen.get(sdkName);
    if (other) problems.push(`${other} and ${operationId} are both named ${sdkName} in the SDK: rename one x-sdk-name`);
    if (groups.has(sdkName)) problems.push(`${operationId}'s SDK name ${sdkName} is also a group of other operations`);
    seen.set(sdkName, operationId);
  }
  if (problems.length) throw new Error(`Cannot generate the SDK's named operations:\n  ${problems.join('\n  ')}`);
  return operations;
}

/** Operations and groups of operations by name, in the order they first appear. */
type Tree = Map<string, NamedOperation | Tree>;

function tree(operations: NamedOperation[]): Tree {
  const root: Tree = new Map();
  for (const operation of operations) {
    let node = root;
    for (const group of operation.groups) {
      if (!node.has(group)) node.set(group, new Map());
      node = node.get(group) as Tree;
    }
    node.set(operation.name, operation);
  }
  return root;
}

/** The text of packages/sdk/src/generated/operations.ts. */
export function sdkOperationsModule(spec: OpenApiDocument): string {
  const root = tree(namedOperations(spec));
  const tagDescriptions = new Map(
    ((spec.tags ?? []) as { name: string; description?: string }[]).map((tag) => [groupName(tag.name), tag.description]),
  );

  const interfaceBody = (node: Tree, depth: number): string => {
    const indent = '  '.repeat(depth);
    return [...node]
      .map(([key, value]) => {
        if (value instanceof Map) {
          const doc = depth === 1 ? jsdoc([tagDescriptions.get(key)], indent) : '';
          return `${doc}${indent}${key}: {\n${interfaceBody(value, depth + 1)}\n${indent}};`;
        }
        const doc = jsdoc(
          [value.summary, value.description, `\`${value.method.toUpperCase()} ${value.path}\` (operation \`${value.operationId}\`)`],
          indent,
        );
        return `${doc}${indent}${key}: Operation<${quote(value.path)}, ${quote(value.method)}, Throwing>;`;
      })
      .join('\n');
  };

  const routesBody = (node: Tree, depth: number): string => {
    const indent = '  '.repeat(depth);
    return [...node]
      .map(([key, value]) =>
        value instanceof Map
          ? `${indent}${key}: {\n${routesBody(value, depth + 1)}\n${indent}},`
          : `${indent}${key}: ${quote(`${value.method.toUpperCase()} ${value.path}`)},`,
      )
      .join('\n');
  };

  return `// GENERATED by \`pnpm codegen\` from spec/ (tools/openapi/sdk-operations.ts) — do not edit by hand.
import type { Operation } from '../operations.js';

/**
 * The API's operations as methods, named in the contract (\`x-sdk-name\`): \`cw.spaces.get({ spaceId })\`,
 * \`cw.changeRequests.comments.list({ spaceId, changeRequestId })\`. Each takes its path parameters,
 * \`query\` and \`body\` in one object, and call options second.
 */
export interface Operations<Throwing extends boolean> {
${interfaceBody(root, 1)}
}

/** Each operation's \`METHOD /path\`, by its SDK name: what {@link Operations} calls. */
export const operationRoutes = {
${routesBody(root, 1)}
} as const;
`;
}

function quote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A JSDoc block of paragraphs (empty ones left out), each line indented by `indent`. */
function jsdoc(paragraphs: (string | undefined)[], indent: string): string {
  const text = paragraphs
    .map((paragraph) => paragraph?.trim())
    .filter(Boolean)
    .join('\n\n')
    .replaceAll('*/', '*\\/');
  if (!text) return '';
  const lines = text.split('\n').map((line) => (line ? `${indent} * ${line}` : `${indent} *`));
  return `${indent}/**\n${lines.join('\n')}\n${indent} */\n`;
}
