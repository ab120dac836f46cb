// No import cycle between the server's areas (tools/lint/area-cycles.js, enabled in eslint.config.js):
// planted files, linted with the repository's own ESLint configuration at paths inside an area, close a
// cycle (lint fails and names it) or keep to the existing direction (lint passes); and the cycles that
// stand are exactly the ones the rule knows (KNOWN_AREA_CYCLE_EDGES), so a broken one leaves the list.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/paths.js';
import { areaGraph, cyclicEdges, KNOWN_AREA_CYCLE_EDGES } from './area-cycles.js';

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

it('lists as known exactly the area imports that close a cycle today', () => {
  expect(cyclicEdges(areaGraph(join(repoRoot, 'packages/server/src/areas/')))).toEqual([...KNOWN_AREA_CYCLE_EDGES].sort());
});
