// Where a page body's render spends its CPU (issue 28 "Speed"): a V8 CPU profile taken in this process
// (node:inspector) while a renderer renders new documents, each sample charged to the stage of the body
// renderer it ran in — the innermost frame on its stack that belongs to one (markdown-it, parse5 reading
// HTML, the sanitizer, heading slugs, highlighting, math, serialization, the renderer's own code) —, in
// milliseconds per render. Frames of helpers shared by stages (hastscript, unist utilities, Node core)
// are charged to the stage that called them.
import { Session } from 'node:inspector/promises';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const MODULE_STAGES: Array<[RegExp, string]> = [
  [/^(markdown-it|markdown-it-footnote|linkify-it|mdurl|punycode\.js|uc\.micro)$/, 'markdown-it (tokens, its HTML)'],
  [/^(parse5|hast-util-raw|hast-util-from-parse5|hast-util-to-parse5|entities)$/, 'parse5 (HTML read into hast)'],
  [/^(hast-util-sanitize|rehype-sanitize)$/, 'sanitizer'],
  [/^(rehype-slug|github-slugger|hast-util-heading-rank|hast-util-to-string)$/, 'heading slugs'],
  [/^(highlight\.js|lowlight)$/, 'highlighting'],
  [/^katex$/, 'math (KaTeX)'],
  [/^(hast-util-to-html|stringify-entities|character-entities-legacy|character-entities-html4)$/, 'serialization (hast-util-to-html)'],
];

const FILE_STAGES: Array<[RegExp, string]> = [
  [/\/code-highlight\.ts$/, 'highlighting'],
  [/\/body-math\.ts$/, 'math (KaTeX)'],
  [/\/markdown-parse\.ts$/, 'markdown-it (tokens, its HTML)'],
  [/\/markdown-(hast|tokens)\.ts$/, 'tokens to hast (the renderer)'],
  [/\/gitbook-blocks\.ts$/, 'GitBook tags to wrappers'],
  [/\/markdown-html\.ts$/, 'dresser and the rest of markdown-html.ts'],
];

function moduleOf(url: string): string | undefined {
  return /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
}

function stageOf({ functionName, url }: ProfileNode['callFrame']): string | undefined {
  if (functionName === '(garbage collector)') return 'garbage collection';
  const module = moduleOf(url);
  if (module) return MODULE_STAGES.find(([pattern]) => pattern.test(module))?.[1];
  return FILE_STAGES.find(([pattern]) => pattern.test(url))?.[1];
}

/** Milliseconds of CPU per render by stage (largest first), `render` called once per document. */
export async function profileRenders(render: (markdown: string) => unknown, documents: string[]): Promise<Array<[string, number]>> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    for (const markdown of documents) render(markdown);
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    const parent = new Map<number, ProfileNode>();
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
    const stages = new Map<string, number>();
    profile.samples.forEach((id, index) => {
      let node = byId.get(id);
      if (!node || node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') return;
      // The inspector's own frame while it samples this thread: the profiler's cost, not the renderer's.
      if (node.callFrame.functionName === 'dispatch' && node.callFrame.url === '') return;
      let stage: string | undefined;
      for (; node && !stage; node = parent.get(node.id)) stage = stageOf(node.callFrame);
      stage ??= 'other';
      stages.set(stage, (stages.get(stage) ?? 0) + (profile.timeDeltas[index] ?? 0));
    });
    return [...stages].map(([stage, micros]): [string, number] => [stage, micros / 1000 / documents.length]).sort((a, b) => b[1] - a[1]);
  } finally {
    session.disconnect();
  }
}
