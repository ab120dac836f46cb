// No import cycle between the server's areas (issue 27, item 3): an area that imports another (through
// its index.ts, as eslint.config.js's boundaries require) must not be reachable back from it. The graph
// of areas is read from the files on disk once per lint run (every import or re-export whose source
// lands in another area's folder, types included: a type import ties two areas as much as a value one),
// with the file being linted read as it is in the editor; an import is reported when the area it names
// reaches the importing area. No cycle stands and none is tolerated: the rule has no list of exceptions
// (the last cycle, spaces ↔ sites ↔ content, was broken by moving a space's published address below the
// areas, to packages/server/src/publication/; docs/decisions.md).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const AREAS = `packages${sep}server${sep}src${sep}areas${sep}`;
const IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm;

/**
 * The areas folder and the area of `file`, when it is inside one.
 * @param {string} file
 * @returns {{ folder: string, area: string } | undefined}
 */
export function areaOf(file) {
  const at = file.indexOf(AREAS);
  if (at < 0) return undefined;
  const folder = file.slice(0, at + AREAS.length);
  const area = file.slice(folder.length).split(sep)[0];
  return area && !area.endsWith('.ts') ? { folder, area } : undefined;
}

/**
 * The other areas `source` (a module's text at `file`) imports from.
 * @param {string} file
 * @param {string} source
 * @returns {Set<string>}
 */
export function importedAreas(file, source) {
  const own = areaOf(file);
  /** @type {Set<string>} */
  const found = new Set();
  if (!own) return found;
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1] ?? '';
    if (!specifier.startsWith('.')) continue;
    const target = relative(own.folder, resolve(dirname(file), specifier));
    const area = target.split(sep)[0];
    if (area && !area.startsWith('..') && target.includes(sep) && area !== own.area) found.add(area);
  }
  return found;
}

/**
 * Area → the areas its (non-test) files import, as on disk.
 * @param {string} folder
 * @returns {Map<string, Set<string>>}
 */
export function areaGraph(folder) {
  /** @type {Map<string, Set<string>>} */
  const graph = new Map();
  /** @param {string} path @param {string} area */
  const walk = (path, area) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child, area);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const target of importedAreas(child, readFileSync(child, 'utf8'))) graph.get(area)?.add(target);
      }
    }
  };
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    graph.set(entry.name, new Set());
    walk(join(folder, entry.name), entry.name);
  }
  return graph;
}

/**
 * A path of areas from `from` to `to` in `graph` (breadth first: the shortest), or undefined.
 * @param {Map<string, Set<string>>} graph
 * @param {string} from
 * @param {string} to
 * @returns {string[] | undefined}
 */
export function pathBetween(graph, from, to) {
  /** @type {Map<string, string | undefined>} */
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  for (let area = queue.shift(); area !== undefined; area = queue.shift()) {
    if (area === to) {
      /** @type {string[]} */
      const path = [];
      for (let /** @type {string | undefined} */ at = to; at !== undefined; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const next of graph.get(area) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, area);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/**
 * Every edge `a -> b` that lies on a cycle of `graph`.
 * @param {Map<string, Set<string>>} graph
 * @returns {string[]}
 */
export function cyclicEdges(graph) {
  const edges = [];
  for (const [from, targets] of graph) for (const to of targets) if (pathBetween(graph, to, from)) edges.push(`${from} -> ${to}`);
  return edges.sort();
}

/** @type {Map<string, Map<string, Set<string>>>} */
const graphs = new Map();

/** @type {import('eslint').Rule.RuleModule} */
export const noAreaCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between the server’s areas' },
    schema: [],
    messages: {
      cycle: 'areas/{{from}} imports areas/{{to}}, which imports it back ({{path}}): move what both need down a floor (docs/architecture.md, "The server\'s layers").',
    },
  },
  create(context) {
    const own = areaOf(context.filename);
    if (!own || context.filename.endsWith('.test.ts')) return {};
    const onDisk = graphs.get(own.folder) ?? areaGraph(own.folder);
    graphs.set(own.folder, onDisk);
    // The graph with this file's imports as they are now (a planted or edited file), besides its area's others.
    const graph = new Map(onDisk);
    graph.set(own.area, new Set([...onDisk.get(own.area) ?? [], ...importedAreas(context.filename, context.sourceCode.text)]));
    /** @param {import('eslint').Rule.Node} node the import or export @param {unknown} specifier what it imports */
    const check = (node, specifier) => {
      for (const to of importedAreas(context.filename, `import x from '${String(specifier)}';`)) {
        const back = pathBetween(graph, to, own.area);
        if (back) context.report({ node, messageId: 'cycle', data: { from: own.area, to, path: [own.area, ...back].join(' -> ') } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => {
        if (node.source) check(node, node.source.value);
      },
      ExportAllDeclaration: (node) => check(node, node.source.value),
    };
  },
};
