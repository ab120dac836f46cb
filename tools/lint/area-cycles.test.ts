// No import cycle between the server's areas (tools/lint/area-cycles.js, enabled in eslint.config.js):
// planted files, linted with the repository's own ESLint configuration at paths inside an area, close a
// cycle (lint fails and names it) or keep to the existing direction (lint passes); and no cycle stands
// on disk (the rule knows no exception).
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/paths.js';
import { areaGraph, cyclicEdges } from './area-cycles.js';

const eslint = new ESLint({ cwd: repoRoot });

/** The no-area-cycles messages for `code` planted at `path` (under packages/server/src/areas/). */
async function cycleErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const planted = 1;\n`, { filePath: join(repoRoot, 'packages/server/src/areas', path) });
  return result!.messages.filter((m) => m.ruleId === 'repository/no-area-cycles').map((m) => m.message);
}

describe('lint refuses an import cycle between areas', () => {
  it('fails on an import that closes a cycle (webhooks already imports events), naming it', async () => {
    expect(await cycleErrors('events/planted.ts', "import { webhooksArea } from '../webhooks/index.js';\nvoid webhooksArea;")).toEqual([
      expect.stringContaining('(events -> webhooks -> events)'),
    ]);
  });

  it('fails on a longer cycle, through type imports and re-exports too', async () => {
    // change-requests → content → events → users: users importing change-requests closes it.
    expect(await cycleErrors('users/planted.ts', "export type { ChangeRequestRow } from '../change-requests/index.js';")).toEqual([
      expect.stringMatching(/\(users -> change-requests -> .*users\)/),
    ]);
  });

  it('passes imports in the existing direction, and an area’s own files', async () => {
    expect(await cycleErrors('webhooks/planted.ts', "import { recordEvent } from '../events/index.js';\nvoid recordEvent;")).toEqual([]);
    expect(await cycleErrors('events/planted.ts', "import { insertEvents } from './events.repository.js';\nvoid insertEvents;")).toEqual([]);
  });
});

describe('the last cycle stays broken (spaces ↔ sites ↔ content, docs/decisions.md)', () => {
  // sites builds on spaces and content (a site created with a new space, its first content written):
  // either of them reaching back to sites, for a space's published address, closes the cycle again.
  it.each([
    ['spaces/planted.ts', 'spaces -> sites -> spaces'],
    ['content/planted.ts', 'content -> sites -> content'],
  ])('fails on %s importing the sites area (%s)', async (path, cycle) => {
    expect(await cycleErrors(path, "import { findSite } from '../sites/index.js';\nvoid findSite;")).toEqual([expect.stringContaining(`(${cycle})`)]);
  });

  it('passes the published address taken from below the areas', async () => {
    expect(
      await cycleErrors('spaces/planted.ts', "import { publishedSpaceAddress } from '../../publication/space-addresses.js';\nvoid publishedSpaceAddress;"),
    ).toEqual([]);
  });
});

it('finds the edges of a cycle in a graph, and none where there is none', () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));
  expect(cyclicEdges(graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [] }))).toEqual(['a -> b', 'b -> c', 'c -> a']);
  expect(cyclicEdges(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
});

it('no import between areas closes a cycle on disk', () => {
  expect(cyclicEdges(areaGraph(join(repoRoot, 'packages/server/src/areas/')))).toEqual([]);
});
