// Each operation's `x-access` declaration, read from the bundled spec and checked: the source of the
// generated access map (packages/contract/src/access.ts), which the server enforces and the tests run,
// and of docs/access.md.
import type { OpenApiDocument } from './bundle.js';

export const SCOPES = ['public', 'user', 'organization', 'collection', 'space', 'change-request'] as const;
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;

type Scope = (typeof SCOPES)[number];

export type Declaration = {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  scope: Scope;
  minimum: string | null;
  rules: string[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** What `minimum` may be for each scope. */
const MINIMUMS: Record<Scope, readonly (string | null)[]> = {
  public: [null],
  user: ['authenticated'],
  organization: ['guest', 'member', ...ROLES],
  collection: ROLES,
  space: ROLES,
  'change-request': ROLES,
};

/** The path parameters a scope is resolved from. */
const SCOPE_PARAMETERS: Record<Scope, string[]> = {
  public: [],
  user: [],
  organization: ['organizationId'],
  collection: ['collectionId'],
  space: ['spaceId'],
  'change-request': ['spaceId', 'changeRequestId'],
};

export function accessRules(spec: OpenApiDocument): Record<string, string> {
  return (spec['x-access-rules'] ?? {}) as Record<string, string>;
}

/** Every operation's declaration; throws listing every operation whose `x-access` is missing or wrong. */
export function readDeclarations(spec: OpenApiDocument): Declaration[] {
  const known = accessRules(spec);
  const problems: string[] = [];
  const declarations: Declaration[] = [];
  for (const [path, item] of Object.entries(spec.paths) as Array<[string, Record<string, any>]>) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const id = operation.operationId as string;
      const access = operation['x-access'] as { scope?: string; minimum?: string; rule?: string | string[] } | undefined;
      if (!access) {
        problems.push(`${id}: no x-access`);
        continue;
      }
      const scope = access.scope as Scope;
      if (!SCOPES.includes(scope)) {
        problems.push(`${id}: unknown scope "${access.scope}"`);
        continue;
      }
      const minimum = access.minimum ?? null;
      if (!MINIMUMS[scope].includes(minimum)) problems.push(`${id}: minimum "${minimum}" is not one of ${MINIMUMS[scope].join(', ')} for scope ${scope}`);
      const rules = access.rule === undefined ? [] : Array.isArray(access.rule) ? access.rule : [access.rule];
      for (const rule of rules) if (!(rule in known)) problems.push(`${id}: rule "${rule}" is not described in x-access-rules`);
      for (const parameter of SCOPE_PARAMETERS[scope]) {
        if (!path.includes(`{${parameter}}`)) problems.push(`${id}: scope ${scope} needs the path parameter {${parameter}}`);
      }
      const security = (operation.security ?? spec.security ?? []) as Array<Record<string, unknown>>;
      const anonymous = security.length === 0 || security.some((s) => Object.keys(s).length === 0);
      if (anonymous !== (scope === 'public')) problems.push(`${id}: scope public goes with \`security: []\` and only with it`);
      declarations.push({ operationId: id, method, path, tag: operation.tags?.[0] ?? 'Other', scope, minimum, rules });
    }
  }
  if (problems.length) throw new Error(`x-access problems in spec/:\n  ${problems.join('\n  ')}`);
  return declarations;
}

/** packages/contract/src/access.ts: the declarations as a typed constant. */
export function accessModule(spec: OpenApiDocument, header: string): string {
  const declarations = readDeclarations(spec);
  const rules = accessRules(spec);
  const entries = declarations.map(
    (d) => `  ${d.operationId}: { scope: '${d.scope}', minimum: ${d.minimum === null ? 'null' : `'${d.minimum}'`}, rules: [${d.rules.map((r) => `'${r}'`).join(', ')}] },`,
  );
  const ruleEntries = Object.entries(rules).map(([name, text]) => `  '${name}': ${JSON.stringify(text)},`);
  return `${header}
/** The compound rules operations may name in \`x-access\`, with what each means. */
export const accessRules = {
${ruleEntries.join('\n')}
} as const;

export type AccessRuleName = keyof typeof accessRules;

/** Each operation's declared access (\`x-access\` in spec/): what the server enforces before the handler. */
export const operationAccess = {
${entries.join('\n')}
} as const;

export type OperationAccess = typeof operationAccess;
`;
}

function describeMinimum(d: Declaration): string {
  switch (d.scope) {
    case 'public':
      return 'no token (own credential)';
    case 'user':
      return 'any authenticated user';
    case 'organization':
      return d.minimum === 'guest' ? 'organization member (guests included)' : d.minimum === 'member' ? 'organization member, not a guest' : `organization role ≥ \`${d.minimum}\``;
    case 'change-request':
      return `\`${d.minimum}\` on the change request's space`;
    default:
      return `\`${d.minimum}\` on the ${d.scope}`;
  }
}

/** docs/access.md: who may call each operation, by tag. */
export function accessTable(spec: OpenApiDocument): string {
  const rules = accessRules(spec);
  const byTag = new Map<string, string[]>();
  for (const d of readDeclarations(spec)) {
    const also = d.rules.map((rule) => `\`${rule}\`: ${rules[rule]}`).join('<br>');
    const line = `| \`${d.operationId}\` | \`${d.method.toUpperCase()} ${d.path}\` | ${describeMinimum(d)} | ${also} |`;
    byTag.set(d.tag, [...(byTag.get(d.tag) ?? []), line]);
  }
  const sections = [...byTag].map(([tag, lines]) => `## ${tag}\n\n| operation | request | who may call | rules |\n|---|---|---|---|\n${lines.join('\n')}\n`);
  return `<!-- GENERATED by \`pnpm codegen\` from the \`x-access\` declarations in spec/ — do not edit by hand. -->
# Access

Who may call each operation, as each declares it in \`x-access\` (what they mean: the [access model](design/access-model.md)). Roles, lowest to highest:
\`read\` < \`comment\` < \`edit\` < \`review\` < \`create\` < \`admin\`. A caller with no standing in the
operation's scope gets 404 for it (it does not exist for them); with a standing below the minimum, 403.
The server enforces these declarations before the handler runs, and the authorization matrix
(\`packages/server/test/authz/\`) runs every row as an outsider, a guest and each role.

${sections.join('\n')}`;
}
