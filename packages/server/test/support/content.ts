// Content helpers for tests: batches through the SDK, expected page shapes, small images.
import type { Database } from '../../src/db/database.js';
import { expect } from 'vitest';
import type { components } from '@content-workspace/sdk';
import type { TestUser } from './factories.js';

type Schemas = components['schemas'];
export type Change = Schemas['ContentChange'];

/** Applies a batch as `user` and answers its result; fails the test on any other status. */
export async function edit(user: TestUser, spaceId: string, changes: Change[]): Promise<Schemas['ContentChangesResult']> {
  const { data, error, response } = await user.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } }, body: { changes } });
  if (response.status !== 200) throw new Error(`batch answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

/** GitBook's tabs block as Markdown lines: a tab per title, its body's lines as given. */
export function tabsBlock(tabs: Record<string, string[]>): string[] {
  return ['{% tabs %}', ...Object.entries(tabs).flatMap(([title, body]) => [`{% tab title="${title}" %}`, ...body, '{% endtab %}']), '{% endtabs %}'];
}

/** The tab of an npm install, as the published-site tests' pages show it. */
export const NPM_INSTALL_TAB = ['```sh', 'npm install tool', '```'];

export const DEFAULT_LAYOUT: Schemas['PageLayout'] = { cover: true, coverSize: 'hero', title: true, description: true, tableOfContents: true, outline: true, pagination: true };

/** A page as whole-revision reads show it, with the given fields; `pages` defaults to none. */
export function expectedPage(spaceId: string, page: { id: string; title: string; slug: string; path: string } & Partial<Schemas['Page']>): Schemas['Page'] {
  return {
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    type: 'document' as const,
    pages: [],
    urls: { app: `http://app.test/s/${spaceId}/${page.path}` },
    layout: DEFAULT_LAYOUT,
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    ...page,
  };
}

/** A PNG signature and IHDR chunk of the given size: enough bytes for a file with dimensions. */
export function pngBytes(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d', 'hex'), Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
}

/** Row counts of every content table, to prove a failed write left nothing behind. */
export async function contentRowCounts(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['revisions', 'treeNodes', 'documents', 'fileNodes', 'reusableNodes', 'fileBlobs', 'blobBytes', 'spaceHeadPages', 'spaceHeadFiles'] as const) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  return counts;
}
