// packages/sdk/src/generated/operations.ts: the SDK's named operations (`cw.spaces.getSpaceById(…)`),
// generated from the bundled spec by `pnpm codegen` and drift-checked by `pnpm codegen:check`.
//
// Naming, stable as the spec grows (an operation's name depends only on its own tag and operationId):
// - the group is the operation's first tag in camelCase: "Change requests" → `changeRequests`,
//   "SSO" → `sso`;
// - the method is the operationId, except that an operationId made of one lowercase verb and the
//   group's noun (plural or singular) is shortened to the verb: `mergeChangeRequest` → `merge`,
//   `listChangeRequests` → `list`, `createSpace` → `create`; `getSpaceById` stays `getSpaceById`.
// Anything that would make the generated API ambiguous (an untagged operation, two methods of one
// name in a group, a path parameter named like the `query`/`body`/`header` keys) stops codegen.
import type { OpenApiDocument } from './bundle.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
/** Keys of an operation's argument object besides its path parameters. */
const ARGUMENT_KEYS = new Set(['query', 'body', 'header']);
/** Properties of the SDK's workspace object besides the groups. */
const RESERVED_GROUPS = new Set(['client']);

export const SDK_OPERATIONS_FILE = 'packages/sdk/src/generated/operations.ts';

type SpecOperation = { operationId?: string; tags?: string[]; summary?: string; description?: string };

/** One operation as the SDK names it. */
export type NamedOperation = {
  group: string;
  name: string;
  method: (typeof METHODS)[number];
  path: string;
  operationId: string;
  summary?: string;
  description?: string;
};

/** A tag's name in camelCase, as the SDK groups its operations: "Change requests" → `changeRequests`. */
export function groupName(tag: string): string {
  const words = tag.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word.toLowerCase());
  return words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
}

/** The method name of an operation in its group (see the rule at the top of this file). */
export function methodName(operationId: string, group: string): string {
  const noun = group[0]!.toUpperCase() + group.slice(1);
  const singular = noun.endsWith('s') ? noun.slice(0, -1) : noun;
  const match = /^([a-z]+)([A-Z][A-Za-z0-9]*)$/.exec(operationId);
  return match && (match[2] === noun || match[2] === singular) ? match[1]! : operationId;
}

/** Every operation of the spec with its group and method name, in the spec's order of tags and paths. */
export function namedOperations(spec: OpenApiDocument): NamedOperation[] {
  const tagOrder = ((spec.tags ?? []) as { name: string }[]).map((tag) => tag.name);
  const problems: string[] = [];
  const operations: NamedOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths) as [string, Record<string, SpecOperation>][]) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const { operationId, tags, summary, description } = operation;
      const where = `${method.toUpperCase()} ${path}`;
      if (!operationId) {
        problems.push(`${where} has no operationId`);
        continue;
      }
      const tag = tags?.[0];
      if (!tag) {
        problems.push(`${operationId} (${where}) has no tag: its first tag names its SDK group`);
        continue;
      }
      const group = groupName(tag);
      if (!/^[a-z][A-Za-z0-9]*$/.test(group) || RESERVED_GROUPS.has(group)) {
        problems.push(`the tag "${tag}" of ${operationId} makes the SDK group name \`${group}\`, which is not usable`);
      }
      for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) {
        if (ARGUMENT_KEYS.has(param!)) problems.push(`${operationId}: the path parameter {${param}} clashes with the SDK's \`${param}\` argument`);
      }
      operations.push({ group, name: methodName(operationId, group), method, path, operationId, summary, description });
    }
  }
  const seen = new Map<string, string>();
  for (const { group, name, operationId } of operations) {
    const key = `${group}.${name}`;
    const other = seen.get(key);
    if (other) problems.push(`${other} and ${operationId} would both be the SDK method ${key}: rename one operationId`);
    seen.set(key, operationId);
  }
  if (problems.length) throw new Error(`Cannot generate the SDK's named operations:\n  ${problems.join('\n  ')}`);
  const rank = (group: string) => {
    const index = tagOrder.findIndex((tag) => groupName(tag) === group);
    return index < 0 ? tagOrder.length : index;
  };
  // Stable sort: groups in the order of the spec's `tags`, operations in the order of the paths.
  return operations.sort((a, b) => rank(a.group) - rank(b.group));
}

/** The text of packages/sdk/src/generated/operations.ts. */
export function sdkOperationsModule(spec: OpenApiDocument): string {
  const operations = namedOperations(spec);
  const groups = new Map<string, NamedOperation[]>();
  for (const operation of operations) groups.set(operation.group, [...(groups.get(operation.group) ?? []), operation]);
  const tagDescriptions = new Map(
    ((spec.tags ?? []) as { name: string; description?: string }[]).map((tag) => [groupName(tag.name), tag.description]),
  );

  const interfaceBody = [...groups]
    .map(([group, members]) => {
      const lines = members.map((operation) => {
        const doc = jsdoc(
          [
            operation.summary,
            operation.description,
            `\`${operation.method.toUpperCase()} ${operation.path}\` (operation \`${operation.operationId}\`)`,
          ],
          '    ',
        );
        return `${doc}    ${operation.name}: Operation<${quote(operation.path)}, ${quote(operation.method)}, Throwing>;`;
      });
      return `${jsdoc([tagDescriptions.get(group)], '  ')}  ${group}: {\n${lines.join('\n')}\n  };`;
    })
    .join('\n');

  const routesBody = [...groups]
    .map(([group, members]) => {
      const lines = members.map((operation) => `    ${operation.name}: ${quote(`${operation.method.toUpperCase()} ${operation.path}`)},`);
      return `  ${group}: {\n${lines.join('\n')}\n  },`;
    })
    .join('\n');

  return `// GENERATED by \`pnpm codegen\` from spec/ (tools/openapi/sdk-operations.ts) — do not edit by hand.
import type { Operation } from '../operations.js';

/**
 * The API's operations as methods, grouped by their first tag: \`cw.spaces.getSpaceById({ spaceId })\`.
 * Each takes its path parameters, \`query\` and \`body\` in one object, and call options second.
 */
export interface Operations<Throwing extends boolean> {
${interfaceBody}
}

/** Each operation's \`METHOD /path\`, by group and method name: what {@link Operations} calls. */
export const operationRoutes = {
${routesBody}
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
