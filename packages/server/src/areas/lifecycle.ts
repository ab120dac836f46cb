// How a space's rows follow it, for every area at once: the table fates the area descriptors declare
// (areas/area.ts) checked against the database's foreign keys, and turned into the copies a transfer
// and a duplicate run — columns read from the catalogue, tables in foreign-key order (a row after the
// rows it references), then the areas' own steps. Handed to services through the app context, so a
// service never imports the registry (no import cycle through the areas).
//
// Which rows belong to the moved spaces and collections is found by following foreign keys from the
// table to `spaces` or `collections` (comment_reactions → comments → spaces): the same links the
// cascade follows when the transfer deletes the originals, so what the cascade would delete is exactly
// what a fate must account for.
import { sql, type RawBuilder } from 'kysely';
import { catalogue as readCatalogue, type Catalogue, type CatalogueTable, type ForeignKey } from '../db/catalogue.js';
import { copyRows } from '../db/copy-rows.js';
import type { Executor } from '../db/database.js';
import type { Area, DuplicateFate, DuplicateScope, DuplicateStep, PurgeScope, PurgeStep, TableFate, TableName, TransferFate, TransferScope, TransferServices, TransferStep } from './area.js';

/** The tables a transfer moves by id; every other table follows one of them through foreign keys. */
const ROOTS = ['spaces', 'collections'] as const;
type Root = (typeof ROOTS)[number];

export type Lifecycle = {
  /** Copies every moved row under the target organization and runs the areas' transfer steps (the caller removes the originals). */
  transfer(trx: Executor, scope: TransferScope, services: TransferServices): Promise<void>;
  /** Copies the rows a duplicate keeps to the new space and runs the areas' duplicate steps. */
  duplicate(trx: Executor, scope: DuplicateScope): Promise<void>;
  /** The areas' purge steps (the rows that reference `spaces` go by cascade). */
  purge(trx: Executor, scope: PurgeScope): Promise<void>;
};

/** A table whose rows follow spaces or collections, with the foreign keys that lead from it to its root. */
export type FollowingTable = { table: CatalogueTable; root: Root; path: ForeignKey[] };

export type LifecycleAnalysis = {
  /** Tables linked to spaces or collections, in foreign-key order (referenced tables first). */
  following: FollowingTable[];
  /** Declarations that do not match the database, each saying what to change. */
  problems: string[];
};

type Declared = { area: string; fate: TableFate<TableName> };

/** snake_case, as Kysely's CamelCasePlugin writes a name to the database. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

const isFollowing = (fate: TableFate<TableName>): fate is Extract<TableFate<TableName>, { transfer: unknown }> => 'transfer' in fate;
const reason = (fate: TransferFate<TableName> | DuplicateFate<TableName>) => (typeof fate === 'object' && 'dropped' in fate ? fate.dropped : undefined);

function declarations(areas: readonly Area[]): { byTable: Map<string, Declared>; problems: string[] } {
  const byTable = new Map<string, Declared>();
  const problems: string[] = [];
  for (const area of areas) {
    for (const [name, fate] of Object.entries(area.tables) as Array<[TableName, TableFate<TableName>]>) {
      const table = snakeCase(name);
      const other = byTable.get(table);
      if (other) problems.push(`${table} is declared by the areas ${other.area} and ${area.name}: one area owns a table`);
      byTable.set(table, { area: area.name, fate });
      if (isFollowing(fate)) {
        for (const [what, text] of [['transfer', reason(fate.transfer)], ['duplicate', reason(fate.duplicate)]] as const) {
          if (text !== undefined && text.trim().length < 10) problems.push(`${table} (${area.name}): say why its rows are dropped on ${what} ({ dropped: '…why…' })`);
        }
      } else if (fate.stays.trim().length < 10) problems.push(`${table} (${area.name}): say why its rows belong to no space ({ stays: '…why…' })`);
    }
  }
  return { byTable, problems };
}

const describePath = (path: ForeignKey[]) =>
  path.map((fk) => `${fk.table}.(${fk.columns.join(', ')}) → ${fk.references}`).join(', ');

/**
 * The tables linked to spaces or collections by foreign keys, each by its shortest path (a direct
 * link to `spaces` first), in the order rows can be inserted (referenced tables first).
 */
function followingTables(catalogue: Catalogue): { following: FollowingTable[]; problems: string[] } {
  const paths = new Map<string, FollowingTable>();
  for (const root of ROOTS) if (catalogue.tables.has(root)) paths.set(root, { table: catalogue.tables.get(root)!, root, path: [] });
  const queue: string[] = ROOTS.filter((root) => paths.has(root));
  while (queue.length > 0) {
    const parent = paths.get(queue.shift()!)!;
    for (const fk of catalogue.foreignKeys) {
      if (fk.references !== parent.table.name || paths.has(fk.table)) continue;
      paths.set(fk.table, { table: catalogue.tables.get(fk.table)!, root: parent.root, path: [fk, ...parent.path] });
      queue.push(fk.table);
    }
  }
  // Referenced before referencing (a self-reference is one INSERT: PostgreSQL checks it at the statement's end).
  const order: FollowingTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const problems: string[] = [];
  const visit = (name: string, chain: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      problems.push(`foreign keys between the tables ${[...chain, name].join(' → ')} form a cycle: rows cannot be copied parent first`);
      return;
    }
    state.set(name, 'visiting');
    for (const fk of catalogue.foreignKeys) if (fk.table === name && fk.references !== name && paths.has(fk.references)) visit(fk.references, [...chain, name]);
    state.set(name, 'done');
    order.push(paths.get(name)!);
  };
  for (const name of [...paths.keys()].sort()) visit(name, []);
  return { following: order, problems };
}

/** The column of `table` holding the space's id, through a direct foreign key to `spaces`. */
function spaceColumn(table: CatalogueTable, catalogue: Catalogue): string | undefined {
  if (table.name === 'spaces') return undefined;
  const fk = catalogue.foreignKeys.find((key) => key.table === table.name && key.references === 'spaces' && key.referencedColumns.includes('id'));
  return fk?.columns[fk.referencedColumns.indexOf('id')];
}

function suggestion(table: string, path: ForeignKey[], catalogue: Catalogue): string {
  const copyable = (() => {
    const column = spaceColumn(catalogue.tables.get(table)!, catalogue);
    return column !== undefined && catalogue.tables.get(table)!.primaryKey.includes(column);
  })();
  return [
    `${table} is linked to ${path.at(-1)!.references} (${describePath(path)}), so a transfer deletes its rows by cascade, and no area declares what becomes of them.`,
    `Add it to the \`tables\` of the area that owns it (packages/server/src/areas/<area>/index.ts):`,
    `  ${camelCase(table)}: { transfer: 'moves', duplicate: ${copyable ? `'copied'` : `{ dropped: '…why a duplicate starts without them…' }`} },`,
    `(or { dropped: '…why…' } for rows that must not follow; see TableFate in areas/area.ts)`,
  ].join('\n');
}

/** Checks the areas' table declarations against the database's tables and foreign keys. */
export function analyseLifecycle(catalogue: Catalogue, areas: readonly Area[]): LifecycleAnalysis {
  const { byTable, problems } = declarations(areas);
  const { following, problems: orderProblems } = followingTables(catalogue);
  problems.push(...orderProblems);
  const followingNames = new Set(following.map((entry) => entry.table.name));
  for (const [table, { area, fate }] of byTable) {
    if (!catalogue.tables.has(table)) {
      problems.push(`${table} (${area}) is declared but the database has no such table`);
      continue;
    }
    if (!isFollowing(fate) && followingNames.has(table)) {
      const entry = following.find((candidate) => candidate.table.name === table)!;
      problems.push(`${table} (${area}) is declared { stays } but follows ${entry.root} (${describePath(entry.path)}): a transfer would delete its rows by cascade. Declare { transfer, duplicate } instead`);
    }
    if (isFollowing(fate) && !followingNames.has(table)) {
      problems.push(`${table} (${area}) declares a transfer and a duplicate, but no foreign key links it to spaces or collections: declare { stays: '…why…' }, or add the foreign key`);
    }
  }
  for (const entry of following) {
    const name = entry.table.name;
    const declared = byTable.get(name);
    if (!declared) {
      if (entry.path.length > 0) problems.push(suggestion(name, entry.path, catalogue));
      else problems.push(`${name} is a root of the lifecycle and must be declared by its area`);
      continue;
    }
    if (!isFollowing(declared.fate)) continue;
    if (!entry.table.columns.some((column) => column.name === 'organization_id')) {
      problems.push(`${name} (${declared.area}) follows ${entry.root} but has no organization_id column: rows cannot be moved to another organization`);
    }
    if (reason(declared.fate.duplicate) === undefined) {
      const column = spaceColumn(entry.table, catalogue);
      if (!column || !entry.table.primaryKey.includes(column)) {
        problems.push(
          `${name} (${declared.area}) is declared duplicate: 'copied', but ${column ? `its primary key (${entry.table.primaryKey.join(', ')}) does not hold ${column}: the copies would collide with the originals` : 'it has no foreign key to spaces naming the space'}. Declare { dropped: '…why…' } or give the area a duplicate step`,
        );
      }
    }
  }
  return { following, problems };
}

/** Which rows of `alias`'s table belong to the moved items: by the foreign keys of `path`, up to the root. */
function belongsToMoved(alias: string, root: Root, path: ForeignKey[], scope: TransferScope, depth = 0): RawBuilder<boolean> {
  const ids = root === 'spaces' ? scope.spaceIds : scope.collectionIds;
  if (path.length === 0) return sql<boolean>`${sql.ref(`${alias}.id`)} = ANY(${ids}::text[])`;
  const [fk, ...rest] = path as [ForeignKey, ...ForeignKey[]];
  if (rest.length === 0 && fk.references === root) {
    return sql<boolean>`${sql.ref(`${alias}.${fk.columns[fk.referencedColumns.indexOf('id')]!}`)} = ANY(${ids}::text[])`;
  }
  const parent = `p${depth}`;
  const joins = fk.columns.map((column, i) => sql`${sql.ref(`${parent}.${fk.referencedColumns[i]!}`)} = ${sql.ref(`${alias}.${column}`)}`);
  return sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(fk.references)} AS ${sql.raw(parent)}
    WHERE ${sql.join(joins, sql` AND `)} AND ${belongsToMoved(parent, root, rest, scope, depth + 1)})`;
}

const snakeKeys = (values: Partial<Record<string, RawBuilder<unknown>>>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [snakeCase(key), value!]));

type Plan = { catalogue: Catalogue; analysis: LifecycleAnalysis; fates: Map<string, Extract<TableFate<TableName>, { transfer: unknown }>> };

/** The lifecycle of `areas`: the plan is made from the database's catalogue (read once per process) on first use. */
export function collectLifecycle(areas: readonly Area[]): Lifecycle {
  const steps = <S>(pick: (area: Area) => readonly S[] | undefined) => areas.flatMap((area) => [...(pick(area) ?? [])]);
  const transferSteps = steps<TransferStep>((area) => area.steps?.transfer);
  const duplicateSteps = steps<DuplicateStep>((area) => area.steps?.duplicate);
  const purgeSteps = steps<PurgeStep>((area) => area.steps?.purge);
  let plan: Promise<Plan> | undefined;

  const planFor = (db: Executor): Promise<Plan> => {
    plan ??= readCatalogue(db).then((catalogue) => {
      const analysis = analyseLifecycle(catalogue, areas);
      // Refuse rather than lose rows: a transfer with an undeclared table would delete them by cascade.
      if (analysis.problems.length > 0) throw new Error(`The areas' table declarations do not match the database:\n${analysis.problems.join('\n')}`);
      const fates = new Map<string, Extract<TableFate<TableName>, { transfer: unknown }>>();
      for (const area of areas) {
        for (const [name, fate] of Object.entries(area.tables) as Array<[TableName, TableFate<TableName>]>) if (isFollowing(fate)) fates.set(snakeCase(name), fate);
      }
      return { catalogue, analysis, fates };
    });
    plan.catch(() => (plan = undefined));
    return plan;
  };

  return {
    async transfer(trx, scope, services) {
      const { analysis, fates } = await planFor(trx);
      for (const { table, root, path } of analysis.following) {
        const fate = fates.get(table.name)!.transfer;
        if (typeof fate === 'object' && 'dropped' in fate) continue;
        const options: Partial<Extract<TransferFate<TableName>, { moves: unknown }>['moves']> = fate === 'moves' ? {} : fate.moves;
        if ((root === 'spaces' ? scope.spaceIds : scope.collectionIds).length === 0) continue;
        await copyRows(trx, table, {
          set: { ...snakeKeys(options.set?.(scope) ?? {}), organization_id: scope.to },
          where: sql<boolean>`src.organization_id = ${scope.from} AND ${belongsToMoved('src', root, path, scope)}${options.only ? sql` AND ${options.only(scope)}` : sql``}`,
        });
      }
      for (const step of transferSteps) await step(trx, scope, services);
    },

    async duplicate(trx, scope) {
      const { catalogue, analysis, fates } = await planFor(trx);
      for (const { table } of analysis.following) {
        const fate = fates.get(table.name)!.duplicate;
        if (typeof fate === 'object' && 'dropped' in fate) continue;
        const options: Partial<Extract<DuplicateFate<TableName>, { copied: unknown }>['copied']> = fate === 'copied' ? {} : fate.copied;
        const column = spaceColumn(table, catalogue)!;
        await copyRows(trx, table, {
          set: { ...snakeKeys(options.set?.(scope) ?? {}), [column]: scope.copySpaceId },
          where: sql<boolean>`src.organization_id = ${scope.organizationId} AND ${sql.ref(`src.${column}`)} = ${scope.sourceSpaceId}`,
        });
      }
      for (const step of duplicateSteps) await step(trx, scope);
    },

    async purge(trx, scope) {
      for (const step of purgeSteps) await step(trx, scope);
    },
  };
}
